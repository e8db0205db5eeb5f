import * as Comlink from 'comlink'
import { afterEach, describe, expect, it } from 'vitest'
import { findExtractedFile } from './extracted-archive'
import type { UnzipWorkerApi } from './unzip.worker'
import type { ExtractProgress } from './zip-extractor'
import { meshText, sampleBytes, zipOf } from './zip-test-fixtures'

/** The real module worker in real Chromium, as the product starts it. */
let worker: Worker | undefined
function startWorker(): Comlink.Remote<UnzipWorkerApi> {
  worker = new Worker(new URL('./unzip.worker.ts', import.meta.url), { type: 'module' })
  return Comlink.wrap<UnzipWorkerApi>(worker)
}
afterEach(() => worker?.terminate())

describe('unzip worker in Chromium', () => {
  const model = sampleBytes(2_000_000)
  const zip = zipOf({
    'model/mesh.bin': model,
    'model/scene.json': '{"floors":2}',
    'model/': new Uint8Array(0),
  })

  it('lists a File without copying it in, and extracts it with progress', async () => {
    const api = startWorker()
    const file = new File([zip], 'upload.zip', { type: 'application/zip' })
    const listing = await api.list(file)
    if (!listing.ok) throw new Error(listing.error.message)
    expect(listing.value.entries.map((entry) => [entry.name, entry.uncompressedSizeBytes])).toEqual(
      [
        ['model/mesh.bin', model.byteLength],
        ['model/scene.json', 12],
        ['model/', 0],
      ],
    )

    const reports: ExtractProgress[] = []
    const extracted = await api.extract(
      file,
      { progressIntervalMs: 0 },
      Comlink.proxy((progress: ExtractProgress) => {
        reports.push(progress)
      }),
    )
    if (!extracted.ok) throw new Error(extracted.error.message)
    const mesh = findExtractedFile(extracted.value, 'model/mesh.bin')!
    expect(mesh.byteLength).toBe(model.byteLength)
    expect(mesh.every((byte, index) => byte === model[index])).toBe(true)
    expect(new TextDecoder().decode(findExtractedFile(extracted.value, 'model/scene.json'))).toBe(
      '{"floors":2}',
    )
    await expect.poll(() => reports.at(-1)?.doneBytes).toBe(model.byteLength + 12)
    expect(reports.length).toBeGreaterThan(2)
    expect(reports.at(-1)!.totalBytes).toBe(model.byteLength + 12)
  })

  it('stops an extraction when told to through its abort port', async () => {
    const api = startWorker()
    const big = zipOf({ 'a.obj': meshText(300_000), 'b.obj': meshText(300_000) })
    const abort = new MessageChannel()
    let reportCount = 0
    const outcome = await api.extract(
      new Blob([big]),
      Comlink.transfer(
        { abortPort: abort.port2, progressIntervalMs: 0, chunkedAboveCompressedBytes: 0 },
        [abort.port2],
      ),
      Comlink.proxy(() => {
        reportCount++
        abort.port1.postMessage('abort')
      }),
    )
    expect(outcome).toMatchObject({ ok: false, error: { code: 'archive.aborted' } })
    expect(reportCount).toBeGreaterThan(0)

    // The worker is still usable afterwards.
    const again = await api.list(new Blob([big]))
    expect(again.ok && again.value.entries).toHaveLength(2)
  })
})
