import { launchBenchBrowser } from './lib/browser'
import { startStaticServer } from './lib/static-server'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
const outDir = fileURLToPath(new URL('../dist/bench-city/', import.meta.url))
const tileset = JSON.parse(readFileSync(outDir + 'tileset/tileset.json', 'utf8'))
const server = await startStaticServer(outDir)
const browser = await launchBenchBrowser()
const context = await browser.newContext({ viewport: { width: 960, height: 600 } })
const page = await context.newPage()
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning' || m.text().startsWith('DBG')) console.log('console', m.type(), m.text().slice(0, 300)) })
page.on('crash', () => console.log('PAGE CRASH'))
page.on('pageerror', (e) => console.log('pageerror', e.message))
await page.goto(`${server.origin}/city.html`)
await page.waitForFunction(() => typeof window.runCityBench === 'function')
const renderer = process.argv[2] as 'ours' | 'anchor'
const t0 = Date.now()
try {
  const sample = await page.evaluate((c) => window.runCityBench(c), {
    renderer, tilesetUrl: `${server.origin}/tileset/tileset.json`, origin: { lng: 121.6, lat: 31.2 }, rootTransform: tileset.root.transform,
    viewport: { width: 960, height: 600 }, maximumScreenSpaceError: 16, memoryCapMB: 48,
    path: [
      { eastMeters: 0, northMeters: 0, zoom: 14.5, pitchDegrees: 0, bearingDegrees: 0 },
      { eastMeters: 300, northMeters: -300, zoom: 18, pitchDegrees: 50, bearingDegrees: 240 }],
    pathDurationMs: 4000, settleTimeoutMs: 20000 })
  console.log('SAMPLE', JSON.stringify({ ...sample, frameIntervalsMs: sample.frameIntervalsMs.length }))
} catch (e) { console.log('ERR', (e as Error).message) }
console.log('elapsed', Date.now() - t0)
await page.screenshot({ path: '/tmp/h5-shot.png' }).catch(() => {})
await browser.close(); await server.close()
