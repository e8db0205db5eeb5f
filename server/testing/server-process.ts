import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'

/** The repository root, where `server/serve.ts` is run from. */
const repositoryRoot = resolve(import.meta.dirname, '..', '..')

/** A `server/serve.ts` child process, as an operator would run it. */
export interface ServerProcess {
  child: ChildProcess
  /** `http://127.0.0.1:<port>` once listening. */
  baseUrl: string
  /** Everything the process wrote to stdout so far. */
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>
}

/**
 * Starts `node --import tsx server/serve.ts` with the given environment on a free port
 * (PORT=0) and resolves once it listens. Rejects if it exits first or takes over `timeoutMs`.
 */
export async function startServerProcess(
  environment: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const started = await startScriptProcess(
    'server/serve.ts',
    { PORT: '0', HOST: '127.0.0.1', ...environment },
    /Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
    timeoutMs,
  )
  return { ...started, baseUrl: started.ready[1] as string }
}

/**
 * Starts `node --import tsx <script>` from the repository root and resolves once its stdout
 * matches `readyPattern` (the match is `ready`). Rejects if it exits first or takes over
 * `timeoutMs`.
 */
export function startScriptProcess(
  script: string,
  environment: Record<string, string>,
  readyPattern: RegExp,
  timeoutMs = 60_000,
): Promise<Omit<ServerProcess, 'baseUrl'> & { ready: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repositoryRoot,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text
  })
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text
  })
  const exited = new Promise<number | string>((resolveExit) => {
    child.on('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown'))
  })
  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      rejectStart(new Error(`${script} did not start in ${timeoutMs} ms:\n${stdout}\n${stderr}`))
    }, timeoutMs)
    const onData = () => {
      const match = readyPattern.exec(stdout)
      if (match === null) return
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      resolveStart({ child, ready: match, stdout: () => stdout, stderr: () => stderr, exited })
    }
    child.stdout?.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timer)
      rejectStart(
        new Error(`${script} exited (${code}) before it was ready:\n${stdout}\n${stderr}`),
      )
    })
  })
}

/** Runs serve.ts to completion (for start-up failures) and resolves with its exit and output. */
export function runServerProcessToExit(
  environment: Record<string, string>,
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/serve.ts'], {
      cwd: repositoryRoot,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text
    })
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
    })
    child.on('exit', (code, signal) =>
      resolveRun({ code: code ?? signal ?? 'unknown', stdout, stderr }),
    )
  })
}
