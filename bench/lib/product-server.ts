import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The product's server as a bench runs it: from source, on its own port, without a broker. */
export interface ProductServer {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string
  /** The admin account the server is started with (a fresh password each run). */
  readonly admin: { name: string; password: string }
  /**
   * Starts a server process on this data folder (a restart starts another); `env` adds or
   * replaces variables (e.g. STORAGE_URL for the S3 back-end).
   */
  start(dataDir: string, env?: Record<string, string>): ChildProcess
  /** Resolves once `/web/health` answers; throws after two minutes. */
  waitUntilUp(): Promise<void>
  /** A `/web/<path>` call; answers the envelope's datum, throws on any other code. */
  post<Datum>(path: string, body: unknown, token?: string): Promise<Datum>
  /**
   * Places 12 POIs in a ring 6 m around a building's centre on one floor, at three heights,
   * taking the templates in turn; answers how many were placed.
   */
  placePoiRing(options: {
    projectId: string
    floorId: string
    templateIds: readonly string[]
    namePrefix: string
    token: string
  }): Promise<number>
}

/** Stops a server process (SIGTERM, SIGKILL after 15 s) and resolves once it has exited. */
export async function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  await exited
  clearTimeout(timer)
}

/** The server of a bench that drives the real product over HTTP (kiosk soak, offline viewer). */
export function productServer(port: number, passwordPrefix: string): ProductServer {
  const base = `http://127.0.0.1:${port}`
  const admin = { name: 'admin', password: `${passwordPrefix}-${randomBytes(6).toString('hex')}` }
  const post = async <Datum>(path: string, body: unknown, token?: string): Promise<Datum> => {
    const response = await fetch(`${base}/web/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { Token: token } : {}) },
      body: JSON.stringify(body),
    })
    const envelope = (await response.json()) as { code: string; message: string; datum: Datum }
    if (envelope.code !== '0') throw new Error(`${path}: ${envelope.message}`)
    return envelope.datum
  }
  return {
    base,
    admin,
    start: (dataDir, env) =>
      spawn('node', ['--import', 'tsx', 'server/serve.ts'], {
        cwd: root,
        stdio: 'ignore',
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          ADMIN_NAME: admin.name,
          ADMIN_PASSWORD: admin.password,
          LOG_LEVEL: 'warn',
          // a bench needs no broker, and one on 1883 would collide with other servers here
          MQTT: 'off',
          ...env,
        },
      }),
    async waitUntilUp() {
      for (let attempt = 0; attempt < 240; attempt++) {
        try {
          if ((await fetch(`${base}/web/health`)).ok) return
        } catch {
          // not up yet
        }
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      throw new Error('The server did not start.')
    },
    post,
    async placePoiRing({ projectId, floorId, templateIds, namePrefix, token }) {
      for (let index = 0; index < 12; index++) {
        const angle = (index / 12) * Math.PI * 2
        await post(
          'poi/creatPoi',
          {
            projectid: projectId,
            name: `${namePrefix} ${index + 1}`,
            category_id: templateIds[index % templateIds.length],
            floor_id: floorId,
            x: Math.cos(angle) * 6,
            y: 1 + (index % 3),
            z: Math.sin(angle) * 6,
          },
          token,
        )
      }
      return 12
    },
  }
}
