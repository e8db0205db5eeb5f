import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'

/**
 * Starts an unpacked offline package's own `serve.mjs` (`node serve.mjs 0`: any free port) from
 * `cwd` and answers the address it printed. The caller kills `child`.
 */
export function startPackageServer(
  packageFolder: string,
  cwd = packageFolder,
): Promise<{ child: ChildProcess; port: number; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageFolder, 'serve.mjs'), '0'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let printed = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString()
      const address = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(printed)
      if (address) resolve({ child, port: Number(address[1]), url: address[0] })
    })
    child.stderr!.on('data', (chunk: Buffer) => {
      printed += chunk.toString()
    })
    child.once('exit', (code) => reject(new Error(`serve.mjs exited (${code}): ${printed}`)))
  })
}
