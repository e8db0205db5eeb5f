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
const cdp = await context.newCDPSession(page)
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 1000 }); await cdp.send('Profiler.start')
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
const { profile } = await cdp.send('Profiler.stop') as any
const self = new Map<string, number>()
const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]))
const dt = profile.timeDeltas as number[]
const counts = new Map<number, number>()
profile.samples.forEach((id: number, i: number) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)))
for (const [id, us] of counts) { const n = byId.get(id); const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(key, (self.get(key) ?? 0) + us) }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(v / 1000).toFixed(0)}ms ${k}`).join('\n'))
await page.screenshot({ path: '/tmp/h5-shot.png' }).catch(() => {})
await browser.close(); await server.close()
