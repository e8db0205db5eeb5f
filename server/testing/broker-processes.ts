import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The pids of the running mosquitto processes a server with this DATA_DIR started (their `-c`
 * names a config file under DATA_DIR/mqtt, see mqtt-broker.ts), read from Linux's /proc. A
 * process that has ended but is not yet reaped has an empty command line and is not listed.
 */
export async function brokerProcessesOf(dataDir: string): Promise<number[]> {
  const configFolder = `${join(dataDir, 'mqtt')}/`
  const pids: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const commandLine = await readFile(join('/proc', entry, 'cmdline'), 'utf8').catch(() => '')
    const [executable, option, config] = commandLine.split('\0')
    if (executable?.endsWith('mosquitto') && option === '-c' && config?.startsWith(configFolder)) {
      pids.push(Number(entry))
    }
  }
  return pids
}
