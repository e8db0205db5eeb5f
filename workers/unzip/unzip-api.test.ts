import * as Comlink from 'comlink'
import { afterEach, describe, expect, it } from 'vitest'
import { findExtractedFile } from './extracted-archive'
import type { UnzipWorkerApi } from './unzip.worker'
import { unzipApi } from './unzip-api'
import type { ExtractProgress } from './zip-extractor'
import { meshText, sampleBytes, zipOf } from './zip-test-fixtures'

/**
 * The worker protocol over a real MessageChannel, as between threads: structured cloning,
 * transfers, proxied callbacks and the abort port all behave as they do with a Worker.
 */
const channels: MessageChannel[] = []
function connect(): Comlink.Remote<UnzipWorkerApi> {
  const channel = new MessageChannel()
  channels.push(channel)
  Comlink.expose(unzipApi, channel.port1)
  return Comlink.wrap<UnzipWorkerApi>(channel.port2)
}
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close()
    channel.port2.close()
  }
})

describe('unzip worker API', () => {
  const zip = zipOf({ 'scene/model.bin': sampleBytes(300_000), 'scene/info.json': '{"floors":3}' })

  it('lists and extracts across the channel, receiving the packed buffers', async () => {
    const api = connect()
    const listing = await api.list(new Blob([zip]))
    expect(listing.ok && listing.value.entries.map((entry) => entry.name)).toEqual([
      'scene/model.bin',
      'scene/info.json',
    ])
    const extracted = await api.extract(zip, { names: ['scene/info.json'] })
    if (!extracted.ok) throw new Error(extracted.error.message)
    expect(extracted.value.packs[0]).toBeInstanceOf(ArrayBuffer)
    const info = findExtractedFile(extracted.value, 'scene/info.json')
    expect(new TextDecoder().decode(info)).toBe('{"floors":3}')
  })

  it('answers archive problems with their code instead of a bare error', async () => {
    const api = connect()
    const outcome = await api.list(sampleBytes(1000))
    expect(outcome).toMatchObject({ ok: false, error: { code: 'archive.notZip' } })
    const unsafe = await api.extract(zipOf({ '../x.txt': 'x' }))
    expect(unsafe).toMatchObject({
      ok: false,
      error: { code: 'archive.unsafeEntryName', detail: '../x.txt' },
    })
  })

  it('reports progress through a proxied callback and aborts through a port', async () => {
    const api = connect()
    const reports: ExtractProgress[] = []
    const done = await api.extract(
      zip,
      { progressIntervalMs: 0 },
      Comlink.proxy((progress: ExtractProgress) => {
        reports.push(progress)
      }),
    )
    expect(done.ok).toBe(true)
    await expect.poll(() => reports.at(-1)?.doneEntries).toBe(2)

    const abort = new MessageChannel()
    channels.push(abort)
    const longZip = zipOf({ 'a.obj': meshText(250_000), 'b.obj': meshText(250_000) })
    const aborted = await api.extract(
      longZip,
      Comlink.transfer(
        { abortPort: abort.port2, progressIntervalMs: 0, chunkedAboveCompressedBytes: 0 },
        [abort.port2],
      ),
      Comlink.proxy(() => abort.port1.postMessage('abort')),
    )
    expect(aborted).toMatchObject({ ok: false, error: { code: 'archive.aborted' } })
  })
})
