/**
 * R8 kiosk soak (issue 19): a building project with three captures opened as a kiosk preview
 * (`&kiosk=1&idle=5`), left alone so its tour loops, while the JS heap (after a forced GC) and
 * the engine's live GPU resources (geometries, textures, programs) are sampled. Halfway the
 * network is cut for `SOAK_OFFLINE_SECONDS` and the server is restarted; the preview must keep
 * its scene, say it is reconnecting, and come back live by itself.
 *
 * The run is 60 minutes (`SOAK_MINUTES=60`); the default is a shortened 3-minute run.
 * Needs the production build (`npm run build`). `npx tsx bench/kiosk-soak.ts`; writes
 * bench/results/kiosk-soak.json: growth of heap and GPU resources after the first tour
 * (goal ≤ 5 %), uncaught errors (goal 0), context losses, and whether it recovered.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { launchBenchBrowser } from './lib/browser'

const port = Number(process.env.SOAK_PORT ?? 4414)
const minutes = Number(process.env.SOAK_MINUTES ?? 3)
const offlineSeconds = Number(process.env.SOAK_OFFLINE_SECONDS ?? 20)
const sampleEveryMs = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10) * 1000
const base = `http://127.0.0.1:${port}`
const root = fileURLToPath(new URL('..', import.meta.url))
const dataDir = '/tmp/kiosk-soak-data'
const admin = { name: 'admin', password: `Soak-${randomBytes(6).toString('hex')}` }

/** Issue 19 R8 goals. */
export const kioskSoakGoals = { growthAtMostPercent: 5, uncaughtErrors: 0 }

function startServer(): ChildProcess {
  return spawn('node', ['--import', 'tsx', 'server/serve.ts'], {
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
    },
  })
}

async function waitForServer(): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${base}/web/health`)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('The server did not start.')
}

async function post<Datum>(path: string, body: unknown, token?: string): Promise<Datum> {
  const response = await fetch(`${base}/web/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { Token: token } : {}) },
    body: JSON.stringify(body),
  })
  const envelope = (await response.json()) as { code: string; message: string; datum: Datum }
  if (envelope.code !== '0') throw new Error(`${path}: ${envelope.message}`)
  return envelope.datum
}

/** Signs in, makes a building project with three captures, answers its kiosk address. */
async function seedKioskProject(): Promise<string> {
  const { token } = await post<{ token: string }>('login', admin)
  const png = await readFile(
    new URL('../server/resources/cases/building-cover.png', import.meta.url),
  )
  const upload = new FormData()
  upload.append('purpose', 'project-cover')
  upload.append('file', new Blob([png], { type: 'image/png' }), 'cover.png')
  const cover = (await (
    await fetch(`${base}/web/upload/uploadJpg`, {
      method: 'POST',
      headers: { Token: token },
      body: upload,
    })
  ).json()) as { datum: { uuid: string } }
  const project = await post<{ id: string }>(
    'project/addProject',
    {
      kind: 'building',
      name: 'Kiosk soak',
      detailedaddress: 'Seoul',
      description: 'R8 soak',
      prewiewpath_uuid: cover.datum.uuid,
      project_center: { lng: 126.97, lat: 37.56 },
    },
    token,
  )
  for (const [index, position] of [
    [30, 20, 30],
    [-30, 25, 10],
    [0, 60, 1],
  ].entries()) {
    const form = new FormData()
    form.append('project_id', project.id)
    form.append('name', `View ${index + 1}`)
    form.append('dwell_seconds', '2')
    form.append('camera', JSON.stringify({ position, target: [0, 0, 0] }))
    form.append('file', new Blob([png], { type: 'image/png' }), 'capture.png')
    await fetch(`${base}/web/project/addCapture`, {
      method: 'POST',
      headers: { Token: token },
      body: form,
    })
  }
  const share = await post<{ url: string }>('project/projectShareUrl', { id: project.id }, token)
  return `${base}/${share.url.replace(/^\//, '')}&kiosk=1&idle=5`
}

interface Sample {
  atSeconds: number
  heapBytes: number
  geometries: number
  textures: number
  programs: number
  liveness: string | null
}

async function main(): Promise<void> {
  await rm(dataDir, { recursive: true, force: true })
  let server = startServer()
  await waitForServer()
  const kioskUrl = await seedKioskProject()
  const browser = await launchBenchBrowser({ isFrameRateLimited: true })
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const page = await context.newPage()
  await page.addInitScript(() => localStorage.setItem('twinTest', '1'))
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(kioskUrl)
  await page.waitForFunction(
    () => typeof window.__twinTest?.getEngineSnapshot === 'function',
    null,
    {
      timeout: 120_000,
    },
  )
  const contextLosses = await page.evaluate(() => {
    const state = { lost: 0 }
    document.querySelector('canvas')?.addEventListener('webglcontextlost', () => state.lost++)
    ;(window as unknown as { __soak: typeof state }).__soak = state
    return state.lost
  })
  const cdp = await context.newCDPSession(page)
  const sample = async (startMs: number): Promise<Sample> => {
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = await cdp.send('Runtime.getHeapUsage')
    const state = await page.evaluate(() => ({
      render: window.__twinTest?.getEngineSnapshot().building.render ?? null,
      liveness:
        document.querySelector('[data-testid="preview"]')?.getAttribute('data-liveness') ?? null,
    }))
    return {
      atSeconds: Math.round((Date.now() - startMs) / 1000),
      heapBytes: heap.usedSize,
      geometries: state.render?.geometryCount ?? 0,
      textures: state.render?.textureCount ?? 0,
      programs: state.render?.programCount ?? 0,
      liveness: state.liveness,
    }
  }
  // the tour starts after 5 idle seconds; three views of 2 s make the first tour
  await page.waitForTimeout(15_000)
  const startMs = Date.now()
  const samples: Sample[] = [await sample(startMs)]
  const durationMs = minutes * 60_000
  let wasOffline = false
  let cameBack = false
  while (Date.now() - startMs < durationMs) {
    await page.waitForTimeout(sampleEveryMs)
    if (!wasOffline && Date.now() - startMs > durationMs / 2) {
      wasOffline = true
      await context.setOffline(true)
      server.kill('SIGTERM')
      await page.waitForTimeout(offlineSeconds * 1000)
      server = startServer()
      await waitForServer()
      await context.setOffline(false)
      // the preview asks again with back-off (≤ 60 s between tries)
      await page
        .waitForFunction(
          () =>
            document.querySelector('[data-testid="preview"]')?.getAttribute('data-liveness') ===
            'live',
          null,
          { timeout: 90_000 },
        )
        .then(() => {
          cameBack = true
        })
        .catch(() => undefined)
    }
    samples.push(await sample(startMs))
  }
  const lost = await page.evaluate(
    () => (window as unknown as { __soak: { lost: number } }).__soak.lost,
  )
  const first = samples[0]!
  const last = samples.at(-1)!
  const growth = (from: number, to: number) => (from > 0 ? ((to - from) / from) * 100 : 0)
  const report = {
    name: 'kiosk-soak',
    minutes,
    offlineSeconds,
    goals: kioskSoakGoals,
    heapGrowthPercent: Number(growth(first.heapBytes, last.heapBytes).toFixed(2)),
    gpuResourceGrowth: {
      geometries: last.geometries - first.geometries,
      textures: last.textures - first.textures,
      programs: last.programs - first.programs,
    },
    uncaughtErrors: errors,
    contextLosses: lost - contextLosses,
    recoveredAfterOfflineAndRestart: cameBack,
    samples,
    note: 'Shortened run unless SOAK_MINUTES=60; GPU memory is tracked as live three.js resources.',
  }
  await mkdir(new URL('./results/', import.meta.url), { recursive: true })
  const out = fileURLToPath(new URL('./results/kiosk-soak.json', import.meta.url))
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`)
  console.log(JSON.stringify({ ...report, samples: samples.length }, null, 2))
  await browser.close()
  server.kill('SIGTERM')
}

await main()
