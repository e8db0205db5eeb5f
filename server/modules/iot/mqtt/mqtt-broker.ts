import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { createConnection, createServer } from 'node:net'
import { userInfo } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { iotLimits } from '../../../../contract/iot'
import type { MqttSettings } from './mqtt-settings'

/**
 * A mosquitto started and stopped by the server (issue 17: "started by `npm start` when
 * present"), listening for devices and secured by the Twinscape plugin (mqtt-auth-plugin.c):
 * devices authenticate with their token as user name and publish to ThingsBoard's topics; the
 * server's subscriber (mqtt-ingest.ts) is the only client that reads what they send.
 *
 * The plugin is compiled on first start into DATA_DIR/mqtt (gcc with Debian's mosquitto-dev and
 * libssl-dev; .ci/run installs them), named by a hash of its source so a changed plugin is
 * built again. The credentials file holds SHA-256 hashes only, as the database does.
 */
export interface MqttBroker {
  /** The port devices connect to. */
  port: number
  /** The address the server's subscriber connects to. */
  url: string
  /** The user name and password of the server's own client. */
  serverCredentials: { username: string; password: string }
  /** Replaces the device token hashes the broker accepts (atomically; the plugin rereads it). */
  writeDeviceHashes(hashes: Iterable<string>): Promise<void>
  stop(): Promise<void>
}

/** The server's client's user name (the plugin knows it too). */
export const serverUsername = 'twinscape-ingest'

/** Why the broker is not running, for the log and /web/health. */
export class MqttUnavailable extends Error {
  override name = 'MqttUnavailable'
}

const execFileAsync = promisify(execFile)
const pluginSource = fileURLToPath(new URL('./mqtt-auth-plugin.c', import.meta.url))
const startTimeoutMs = 10_000

/** The mosquitto executable: the configured one, else on PATH, else Debian's /usr/sbin. */
export function findMosquitto(configured: string | undefined): string | undefined {
  return configured !== undefined ? firstExecutable([configured]) : findOnPath('mosquitto')
}

/** An executable by name on PATH, else in the system folders (/usr/sbin is not on every PATH). */
function findOnPath(name: string): string | undefined {
  return firstExecutable([
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)),
    ...['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/bin'].map((dir) => join(dir, name)),
  ])
}

function firstExecutable(candidates: readonly string[]): string | undefined {
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not this one
    }
  }
  return undefined
}

/** Builds the plugin unless a build of the same source is there; answers its path. */
async function buildPlugin(directory: string): Promise<string> {
  const source = readFileSync(pluginSource)
  const digest = createHash('sha256').update(source).digest('hex').slice(0, 16)
  const library = join(directory, `twinscape-auth-${digest}.so`)
  if (existsSync(library)) return library
  const building = `${library}.${process.pid}.tmp`
  try {
    await execFileAsync(
      'gcc',
      ['-O2', '-fPIC', '-shared', pluginSource, '-o', building, '-lcrypto'],
      { timeout: 60_000 },
    )
  } catch (error) {
    await rm(building, { force: true })
    const detail = (error as { stderr?: string }).stderr?.split('\n')[0] ?? String(error)
    throw new MqttUnavailable(
      `cannot build the mosquitto plugin (needs gcc, mosquitto-dev, libssl-dev): ${detail}`,
    )
  }
  await rename(building, library)
  return library
}

/** A free TCP port on the address (for MQTT_PORT=0). */
async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Resolves once something accepts connections on the port, or rejects when `failed` fires. */
async function waitForPort(host: string, port: number, exited: Promise<string>): Promise<void> {
  const deadline = Date.now() + startTimeoutMs
  let failure: string | undefined
  void exited.then((reason) => {
    failure = reason
  })
  while (Date.now() < deadline) {
    if (failure !== undefined) throw new MqttUnavailable(failure)
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host })
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (isOpen) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new MqttUnavailable(`mosquitto did not listen on port ${port} within ${startTimeoutMs} ms`)
}

/** Writes a file whole (a reader sees the old or the new one, never half of it). */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, text, { mode: 0o600 })
  await rename(temporary, path)
}

/**
 * Why the broker dies with the server, however the server ends: a server killed with SIGKILL
 * runs no exit handler, and a process group signal reaches nobody, so the broker would keep the
 * MQTT port from the next start. The kernel's parent-death signal (prctl PR_SET_PDEATHSIG, set
 * by util-linux's `setpriv`) sends it SIGTERM the moment the server's process ends; it survives
 * the exec into mosquitto, which keeps the pid `stop()` signals. A guard shell closes the one
 * gap: if the server died before the signal was armed, the shell's parent is no longer the
 * server and it exits instead of starting the broker. (The signal follows the thread that
 * spawned: the server's main thread, which lives as long as the process.) Without setpriv (not Linux, or no
 * util-linux) the broker starts as a plain child, and the log says it may outlive a SIGKILL.
 */
function spawnTiedToThisProcess(
  executable: string,
  args: readonly string[],
  log: { warn(object: object, message: string): void },
): ChildProcess {
  const stdio: ['ignore', 'ignore', 'pipe'] = ['ignore', 'ignore', 'pipe']
  const setpriv = process.platform === 'linux' ? findOnPath('setpriv') : undefined
  if (setpriv === undefined) {
    log.warn({}, 'setpriv not found: a broker may outlive a server killed with SIGKILL')
    return spawn(executable, args, { stdio })
  }
  const guard = 'test "$PPID" = "$1" || exit 70; shift; exec "$@"'
  return spawn(
    setpriv,
    [
      '--pdeathsig',
      'TERM',
      '--',
      '/bin/sh',
      '-c',
      guard,
      'twinscape-mqtt-guard',
      String(process.pid),
      executable,
      ...args,
    ],
    { stdio },
  )
}

/**
 * Starts mosquitto with the plugin. Throws {@link MqttUnavailable} (with the reason) when it is
 * not installed, the plugin cannot be built or the broker does not come up.
 */
export async function startMqttBroker(options: {
  settings: MqttSettings
  /** HOST, used when MQTT_HOST is unset. */
  defaultHost: string
  dataDir: string
  deviceHashes: Iterable<string>
  log: { warn(object: object, message: string): void }
}): Promise<MqttBroker> {
  const { settings, dataDir } = options
  const executable = findMosquitto(settings.brokerPath)
  if (executable === undefined) throw new MqttUnavailable('mosquitto is not installed')
  const directory = join(dataDir, 'mqtt')
  await mkdir(directory, { recursive: true, mode: 0o700 })
  const plugin = await buildPlugin(directory)
  const host = settings.host ?? options.defaultHost
  const port = settings.port === 0 ? await freePort(host) : settings.port
  // the server's own client connects over loopback when the broker listens on every address
  const clientHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  const password = randomBytes(32).toString('base64url')
  const serverHash = createHash('sha256').update(password).digest('hex')
  const credentialsFile = join(directory, `credentials-${port}`)
  const writeDeviceHashes = async (hashes: Iterable<string>) => {
    const lines = [`s ${serverHash}`]
    for (const hash of hashes) lines.push(`d ${hash}`)
    await writeAtomically(credentialsFile, `${lines.join('\n')}\n`)
  }
  await writeDeviceHashes(options.deviceHashes)
  const configFile = join(directory, `mosquitto-${port}.conf`)
  await writeAtomically(
    configFile,
    [
      '# written by the Twinscape server at each start (server/modules/iot/mqtt/mqtt-broker.ts)',
      'per_listener_settings false',
      'allow_anonymous false',
      `listener ${port} ${host}`,
      `plugin ${plugin}`,
      `plugin_opt_credentials ${credentialsFile}`,
      // the limit of an HTTP body holds for a message too (the broker drops a larger one)
      `message_size_limit ${iotLimits.maxBodyBytes}`,
      // the server's subscription may fall behind for a moment under load: queue, don't drop
      'max_queued_messages 20000',
      'persistence false',
      // tokens are user names: never log connections (they would name them)
      'connection_messages false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      // started by root (CI), mosquitto would switch to a `mosquitto` user that cannot read DATA_DIR
      `user ${userInfo().username}`,
      '',
    ].join('\n'),
  )
  const child: ChildProcess = spawnTiedToThisProcess(executable, ['-c', configFile], options.log)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`mosquitto could not start: ${error.message}`))
    child.once('exit', (code, signal) =>
      resolve(`mosquitto exited (${signal ?? code}): ${stderr.trim().split('\n').at(-1) ?? ''}`),
    )
  })
  let isStopping = false
  void exited.then((reason) => {
    if (!isStopping) options.log.warn({ reason }, 'MQTT broker stopped')
  })
  try {
    await waitForPort(clientHost, port, exited)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    port,
    url: `mqtt://${clientHost.includes(':') ? `[${clientHost}]` : clientHost}:${port}`,
    serverCredentials: { username: serverUsername, password },
    writeDeviceHashes,
    async stop() {
      isStopping = true
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const killer = setTimeout(() => child.kill('SIGKILL'), 3000)
        await exited
        clearTimeout(killer)
      }
      await rm(credentialsFile, { force: true })
      await rm(configFile, { force: true })
    },
  }
}
