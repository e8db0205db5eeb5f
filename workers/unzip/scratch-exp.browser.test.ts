import * as Comlink from 'comlink'
import { unzipSync } from 'fflate'
import { it } from 'vitest'
import type { ScratchApi } from './scratch-exp.worker'
import { extractArchive } from './zip-extractor'
import { Engine } from '../../engine/core/engine'

it('scratch', async () => {
  const blob = await (await fetch('/@fs/work/main/dist/bench-data/unzip-20261125-100000000.zip')).blob()
  const worker = new Worker(new URL('./scratch-exp.worker.ts', import.meta.url), { type: 'module' })
  const api = Comlink.wrap<ScratchApi>(worker)
  const results: Record<string, number[]> = {}
  const engine = new Engine({ maxUnzipWorkers: 1 })
  const cases: Record<string, () => Promise<number>> = {
    'engine ours': async () => { const s = performance.now(); await engine.run('archive.extract', { source: blob, verifyChecksums: false }); return performance.now() - s },
    'worker oursBlobProgress': () => api.run('oursBlobProgress', blob),
    'main unzipSync': async () => { const s = performance.now(); unzipSync(new Uint8Array(await blob.arrayBuffer())); return performance.now() - s },
    'worker unzipSync': () => api.run('unzipSync', blob),
    'worker oursBlob': () => api.run('oursBlob', blob),
  }
  for (let round = 0; round < 4; round++) {
    for (const [name, run] of Object.entries(cases)) {
      await new Promise((r) => setTimeout(r, 100))
      ;(results[name] ??= []).push(await run())
    }
  }
  for (const [name, list] of Object.entries(results)) console.log('RESULT', name, list.map((t) => t.toFixed(0)).join(' '))
  worker.terminate()
}, 900_000)
