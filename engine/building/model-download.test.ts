import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Box3, Matrix4, Vector3 } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AddSbmOutcome, createBvhApi } from '../../workers/bvh/bvh-api'
import type { DecodedSbm } from '../../workers/sbm/decoded-sbm'
import { type PostedBytesMessage, receivePostedModel } from '../../workers/sbm/posted-bytes'
import { type DecodeRequestOptions, sbmDecodeApi } from '../../workers/sbm/sbm-decode-api'
import { createFileAddressBook } from '../core/file-addresses'
import type { JobHandle } from '../core/engine-context'
import { createInProcessWorker } from '../testing/in-process-worker'
import { createWorkerPool } from '../workers/create-worker-client'
import { DownloadError } from './fetch-with-progress'
import {
  type DecodeModel,
  decodeFetchedByWorker,
  decodeForDrawingAndPicking,
  downloadAndDecodeSbm,
  fetchAndDecodeSbm,
  type WorkerDownloadOptions,
} from './model-download'

/**
 * The app's model download against a real HTTP server: this thread reads the body and posts
 * each chunk to the decode API (here on the same thread, through a real MessagePort), which
 * decodes while the rest arrives.
 */
let sbm: Uint8Array
let server: Server
let baseUrl = ''
/** Released to let the slow file's last chunk go out. */
let releaseLast: () => void = () => undefined
/** The addresses the server was asked for, in order. */
const requested: string[] = []

beforeAll(async () => {
  sbm = new Uint8Array(
    await readFile(new URL('../../workers/sbm/fixtures/duck.sbm', import.meta.url)),
  )
  server = createServer((request, response) => {
    requested.push(request.url ?? '')
    const send = (headers: Record<string, string>, bytes: Uint8Array) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary', ...headers })
      response.end(bytes)
    }
    if (request.url === '/whole') {
      send({ 'content-length': String(sbm.byteLength) }, sbm)
    } else if (request.url?.startsWith('/signed?')) {
      // a model address whose grant 'fresh' is valid and any other refused, as the model route does
      if (request.url === '/signed?grant=fresh')
        send({ 'content-length': String(sbm.byteLength) }, sbm)
      else response.writeHead(403).end()
    } else if (request.url === '/held') {
      // the first half, then nothing until the client gives up
      response.writeHead(200, { 'content-length': String(sbm.byteLength) })
      response.write(sbm.subarray(0, sbm.byteLength >> 1))
    } else if (request.url === '/missing') {
      response.writeHead(404).end()
    } else if (request.url === '/unsized') {
      response.writeHead(200, { 'content-type': 'model/gltf-binary' })
      response.write(sbm.subarray(0, 50_000))
      response.end(sbm.subarray(50_000))
    } else if (request.url === '/cut') {
      // declares the whole file, sends half of it, then drops the connection
      response.writeHead(200, { 'content-length': String(sbm.byteLength) })
      response.write(sbm.subarray(0, sbm.byteLength >> 1), () => response.destroy())
    } else if (request.url === '/not-sbm') {
      send({ 'content-length': '4096' }, new Uint8Array(4096).fill(7))
    } else {
      // the whole file but its last 1,000 bytes, which wait for the test's release
      response.writeHead(200, { 'content-length': String(sbm.byteLength) })
      response.write(sbm.subarray(0, sbm.byteLength - 1000))
      let isReleased = false
      releaseLast = () => {
        if (isReleased) return
        isReleased = true
        response.end(sbm.subarray(sbm.byteLength - 1000))
      }
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
)

/**
 * Casts nine rays down across the model's first primitive and expects `picking` to answer each
 * as `reference` does; returns how many hit.
 */
async function picksAlike(
  model: DecodedSbm,
  picking: ReturnType<typeof createBvhApi>,
  reference: ReturnType<typeof createBvhApi>,
): Promise<number> {
  const [minX, minY, minZ, maxX, maxY, maxZ] = model.primitives[0]!.boundingBox
  const box = new Box3(new Vector3(minX, minY, minZ), new Vector3(maxX, maxY, maxZ)).applyMatrix4(
    new Matrix4().fromArray(model.instances[0]!.matrixWorld),
  )
  const center = box.getCenter(new Vector3())
  let hits = 0
  for (let step = -4; step <= 4; step++) {
    const ray = {
      origin: [center.x + step * 0.1 * (box.max.x - box.min.x), center.y + 1000, center.z] as [
        number,
        number,
        number,
      ],
      direction: [0, -1, 0] as [number, number, number],
    }
    const hit = await picking.raycast(ray)
    if (hit) hits++
    expect(hit).toEqual(await reference.raycast(ray))
  }
  return hits
}

/** The decode API as the worker serves it, noting what it was given. */
function decoder() {
  const given: string[] = []
  const decode: DecodeModel = (source) => {
    given.push(source instanceof ArrayBuffer ? 'whole file' : 'posted bytes')
    return sbmDecodeApi.decode(source, { forPicking: true })
  }
  return { decode, given }
}

describe('fetchAndDecodeSbm', () => {
  it('decodes while the bytes arrive, with progress of the bytes received, to the same model', async () => {
    const { decode, given } = decoder()
    const reports: [number, number][] = []
    const decoded = fetchAndDecodeSbm(`${baseUrl}/slow`, decode, {
      onProgress: (done, total) => {
        reports.push([done, total])
        // everything but the held tail is in: let the tail go
        if (done === sbm.byteLength - 1000) releaseLast()
      },
    })
    const outcome = await decoded
    const whole = await sbmDecodeApi.decode(sbm.slice().buffer, { forPicking: true })
    expect(outcome.ok && whole.ok).toBe(true)
    if (!outcome.ok || !whole.ok) return
    expect(given).toEqual(['posted bytes'])
    expect(outcome.value.model.stats).toEqual(whole.value.model.stats)
    expect(outcome.value.model.positions).toEqual(whole.value.model.positions)
    expect(outcome.value.model.indices).toEqual(whole.value.model.indices)
    expect(outcome.value.pickingCopy?.positions).toEqual(whole.value.pickingCopy?.positions)
    // progress: from 0 to the whole file, never backwards, the total known from the start
    expect(reports[0]).toEqual([0, sbm.byteLength])
    expect(reports.at(-1)).toEqual([sbm.byteLength, sbm.byteLength])
    expect(reports.length).toBeGreaterThan(2)
    for (let index = 1; index < reports.length; index++) {
      expect(reports[index]![0]).toBeGreaterThanOrEqual(reports[index - 1]![0])
    }
    // the decode had the views before the tail was sent: it waited for the tail's bytes
    expect(outcome.value.timings['decode.streamedViews']).toBeGreaterThan(0)
  })

  it('feeds the picking worker first, which decodes its share and passes every byte on', async () => {
    const picking = createBvhApi()
    const pickingDecode: { outcome?: Promise<AddSbmOutcome> } = {}
    const options: DecodeRequestOptions[] = []
    const decode = decodeForDrawingAndPicking(
      (source, decodeOptions) => {
        options.push(decodeOptions)
        return sbmDecodeApi.decode(source, decodeOptions)
      },
      (source) => {
        pickingDecode.outcome = picking.addSbm('duck', source)
      },
    )
    const outcome = await fetchAndDecodeSbm(`${baseUrl}/slow`, decode, {
      onProgress: (done) => {
        if (done === sbm.byteLength - 1000) releaseLast()
      },
    })
    const pickable = await pickingDecode.outcome!
    const whole = await sbmDecodeApi.decode(sbm.slice().buffer, { forPicking: true })
    if (!outcome.ok || !whole.ok || !pickable.ok) throw new Error('a decode failed')
    // drawing: the same geometry, no BVHs and no copy for picking
    expect(options).toEqual([{ withoutBvhs: true }])
    expect(outcome.value.model.positions).toEqual(whole.value.model.positions)
    expect(outcome.value.model.indices).toEqual(whole.value.model.indices)
    expect(outcome.value.model.stats).toEqual(whole.value.model.stats)
    expect(outcome.value.model.bvhRoots).toEqual([])
    expect(outcome.value.pickingCopy).toBeNull()
    // picking: its own decode of the same bytes, with the stored BVHs
    expect(pickable.value.triangleCount).toBe(whole.value.model.stats.triangleCount)
    expect(pickable.value.timings?.['decode.streamedBvhs']).toBeGreaterThanOrEqual(0)
    // and it picks what a decode of the whole file picks
    const reference = createBvhApi()
    expect((await reference.addSbm('duck', sbm.slice().buffer)).ok).toBe(true)
    const [minX, minY, minZ, maxX, maxY, maxZ] = whole.value.model.primitives[0]!.boundingBox
    const center = new Box3(new Vector3(minX, minY, minZ), new Vector3(maxX, maxY, maxZ))
      .applyMatrix4(new Matrix4().fromArray(whole.value.model.instances[0]!.matrixWorld))
      .getCenter(new Vector3())
    const ray = {
      origin: [center.x, center.y + 1000, center.z] as [number, number, number],
      direction: [0, -1, 0] as [number, number, number],
    }
    const hit = await picking.raycast(ray)
    expect(hit).not.toBeNull()
    expect(hit).toEqual(await reference.raycast(ray))
  })

  it('splits the decode across two workers: the same model and the same picks as one worker', async () => {
    const options: DecodeRequestOptions[] = []
    const secondOptions: DecodeRequestOptions[] = []
    const decode = decodeForDrawingAndPicking(
      (source, decodeOptions) => {
        options.push(decodeOptions)
        return sbmDecodeApi.decode(source, decodeOptions)
      },
      undefined,
      (source, decodeOptions) => {
        secondOptions.push(decodeOptions)
        return sbmDecodeApi.decode(source, decodeOptions)
      },
    )
    const outcome = await fetchAndDecodeSbm(`${baseUrl}/slow`, decode, {
      onProgress: (done) => {
        if (done === sbm.byteLength - 1000) releaseLast()
      },
    })
    const whole = await sbmDecodeApi.decode(sbm.slice().buffer, { forPicking: true })
    if (!outcome.ok || !whole.ok) throw new Error('a decode failed')
    expect(options).toEqual([{ forPicking: true, share: 'positionsAndBvhs' }])
    expect(secondOptions).toEqual([
      { forPicking: true, share: 'indicesNormalsAndUvs', withoutBvhs: true },
    ])
    // drawing: every array as one worker decodes it; indices, normals and uvs from the second
    const { model } = outcome.value
    expect(model.secondShare).toBeUndefined()
    for (const key of ['positions', 'normals', 'uvs', 'indices', 'primitives', 'stats'] as const) {
      expect(model[key]).toEqual(whole.value.model[key])
    }
    expect(model.uvs?.length).toBeGreaterThan(0)
    expect(outcome.value.secondTimings?.['decode.indices']).toBeGreaterThanOrEqual(0)
    // picking: the same copy, and it picks what one worker's decode picks
    const copy = outcome.value.pickingCopy!
    expect(copy.positions).toEqual(whole.value.pickingCopy!.positions)
    expect(copy.indices).toEqual(whole.value.pickingCopy!.indices)
    const split = createBvhApi()
    const reference = createBvhApi()
    expect((await split.addDecoded('duck', copy)).triangleCount).toBe(
      whole.value.model.stats.triangleCount,
    )
    await reference.addDecoded('duck', whole.value.pickingCopy!)
    expect(await picksAlike(whole.value.model, split, reference)).toBeGreaterThan(0)
  })

  it('decodes on one worker when no second worker is free, or the file came whole', async () => {
    const options: DecodeRequestOptions[] = []
    const decode = decodeForDrawingAndPicking(
      (source, decodeOptions) => {
        options.push(decodeOptions)
        return sbmDecodeApi.decode(source, decodeOptions)
      },
      undefined,
      () => null,
    )
    const outcome = await fetchAndDecodeSbm(`${baseUrl}/slow`, decode, {
      onProgress: (done) => {
        if (done === sbm.byteLength - 1000) releaseLast()
      },
    })
    expect(outcome.ok && outcome.value.model.normals?.length).toBeGreaterThan(0)
    expect((await decode(sbm.slice().buffer)).ok && options.every((option) => !option.share)).toBe(
      true,
    )
    expect(options).toEqual([{ forPicking: true }, { forPicking: true }])
  })

  it('reads a response without Content-Length whole, then decodes it', async () => {
    const { decode, given } = decoder()
    const outcome = await fetchAndDecodeSbm(`${baseUrl}/unsized`, decode, {
      expectedSizeBytes: sbm.byteLength,
    })
    expect(outcome.ok).toBe(true)
    expect(given).toEqual(['whole file'])
  })

  it('fails as a download: an HTTP error before the decode, a cut body during it', async () => {
    const { decode, given } = decoder()
    await expect(fetchAndDecodeSbm(`${baseUrl}/missing`, decode)).rejects.toThrow(DownloadError)
    await expect(fetchAndDecodeSbm(`${baseUrl}/missing`, decode)).rejects.toThrow(/HTTP 404/)
    expect(given).toEqual([])
    const cut = await fetchAndDecodeSbm(`${baseUrl}/cut`, decode)
    expect(cut).toMatchObject({ ok: false, error: { code: 'sbm.downloadFailed' } })
  })

  it('refuses a file that is not an SBM as invalid, whatever arrives after', async () => {
    const { decode } = decoder()
    const outcome = await fetchAndDecodeSbm(`${baseUrl}/not-sbm`, decode)
    expect(outcome).toMatchObject({ ok: false, error: { code: 'sbm.invalid' } })
  })
})

/**
 * The decode worker's own download (issue 23.2), the worker served in-process through real
 * MessagePorts as in the app: the same model and picks as the page's posted download, the same
 * errors, the page's grant renewal, its cancel and its progress.
 */
describe('decodeFetchedByWorker', () => {
  const fetchedByWorker = (path: string, options: WorkerDownloadOptions = {}) =>
    decodeFetchedByWorker(
      `${baseUrl}${path}`,
      (source, decodeOptions) => sbmDecodeApi.decode(source, decodeOptions),
      options,
    )!

  /** What the page's posted download gives for the same address (the path before). */
  const posted = (path: string) => fetchAndDecodeSbm(`${baseUrl}${path}`, decoder().decode)

  it('decodes while the worker downloads, to the same model and the same picks as a posted download', async () => {
    const reports: [number, number][] = []
    const outcome = await fetchedByWorker('/slow', {
      onProgress: (done, total) => {
        reports.push([done, total])
        // part of the file is in and the tail is held: the decode started on an incomplete file
        if (done > 0 && done < total) releaseLast()
      },
    })
    const before = await fetchAndDecodeSbm(`${baseUrl}/slow`, decoder().decode, {
      onProgress: (done, total) => {
        if (done > 0 && done < total) releaseLast()
      },
    })
    if (!outcome.ok || !before.ok) throw new Error('a decode failed')
    const { model, pickingCopy } = outcome.value
    for (const key of ['positions', 'normals', 'uvs', 'indices', 'primitives', 'stats'] as const) {
      expect(model[key]).toEqual(before.value.model[key])
    }
    expect(pickingCopy?.positions).toEqual(before.value.pickingCopy?.positions)
    expect(pickingCopy?.indices).toEqual(before.value.pickingCopy?.indices)
    expect(outcome.value.timings['decode.streamedViews']).toBeGreaterThan(0)
    // progress: up to the whole file, never backwards, the total known from the first report
    expect(reports[0]![1]).toBe(sbm.byteLength)
    expect(reports.at(-1)).toEqual([sbm.byteLength, sbm.byteLength])
    for (let index = 1; index < reports.length; index++) {
      expect(reports[index]![0]).toBeGreaterThanOrEqual(reports[index - 1]![0])
    }
    // and the picking worker picks the same surfaces from either copy
    const fetched = createBvhApi()
    const reference = createBvhApi()
    fetched.addDecoded('duck', pickingCopy!)
    reference.addDecoded('duck', before.value.pickingCopy!)
    expect(await picksAlike(model, fetched, reference)).toBeGreaterThan(0)
  })

  it('fails as the posted download fails: an HTTP error, no server, a cut body, not an SBM', async () => {
    const rejection = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: Error) => ({ type: error.constructor, message: error.message }),
      )
    for (const path of ['/missing']) {
      const failed = await rejection(fetchedByWorker(path))
      expect(failed).toEqual({ type: DownloadError, message: 'download failed: HTTP 404' })
      expect(failed).toEqual(await rejection(posted(path)))
    }
    // nothing listens there
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/model.sbm`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const unreachable = await rejection(
      decodeFetchedByWorker(nowhere, (source, decodeOptions) =>
        sbmDecodeApi.decode(source, decodeOptions),
      )!,
    )
    expect(unreachable?.type).toBe(DownloadError)
    expect(unreachable).toEqual(await rejection(fetchAndDecodeSbm(nowhere, decoder().decode)))
    for (const path of ['/cut', '/not-sbm']) {
      const outcome = await fetchedByWorker(path)
      const before = await posted(path)
      expect(outcome.ok).toBe(false)
      if (outcome.ok || before.ok) throw new Error('expected both to fail')
      expect({ code: outcome.error.code, message: outcome.error.message }).toEqual({
        code: before.error.code,
        message: before.error.message,
      })
    }
  })

  it("renews a refused grant through the page's address book, once, as the page's fetch does", async () => {
    const book = createFileAddressBook()
    book.setRenewer(async () => ({ models: [{ url: '/signed?grant=fresh' }] }))
    requested.length = 0
    const outcome = await fetchedByWorker('/signed?grant=stale', { addresses: book })
    const whole = await sbmDecodeApi.decode(sbm.slice().buffer, { forPicking: true })
    expect(outcome.ok && outcome.value.model.positions).toEqual(
      whole.ok && whole.value.model.positions,
    )
    expect(requested).toEqual(['/signed?grant=stale', '/signed?grant=fresh'])
    // no fresh grant to be had: the refusal is the answer, and the worker is let go
    const revoked = createFileAddressBook()
    revoked.setRenewer(async () => ({ models: [] }))
    requested.length = 0
    await expect(fetchedByWorker('/signed?grant=stale', { addresses: revoked })).rejects.toThrow(
      'download failed: HTTP 403',
    )
    expect(requested).toEqual(['/signed?grant=stale'])
  })

  it('stops the download and the decode when the page cancels (the user leaves the project)', async () => {
    const abort = new AbortController()
    let decodeSettled: Promise<unknown> = Promise.resolve()
    const decoding = decodeFetchedByWorker(
      `${baseUrl}/held`,
      (source, decodeOptions) => {
        const started = sbmDecodeApi.decode(source, decodeOptions)
        decodeSettled = started
        return started
      },
      {
        onProgress: (done) => {
          // part of the file is in, the rest will never come: leave
          if (done > 0) abort.abort()
        },
        signal: abort.signal,
      },
    )!
    const outcome = await decoding
    expect(outcome).toMatchObject({ ok: false, error: { code: 'sbm.downloadFailed' } })
    await decodeSettled
    // cancelled before it started: fails as the page's fetch with an aborted signal does
    const early = new AbortController()
    early.abort()
    await expect(fetchedByWorker('/slow', { signal: early.signal })).rejects.toThrow(DownloadError)
  })

  it('reads a response without Content-Length whole, reporting progress', async () => {
    const reports: [number, number][] = []
    const outcome = await fetchedByWorker('/unsized', {
      expectedSizeBytes: sbm.byteLength,
      onProgress: (done, total) => reports.push([done, total]),
    })
    expect(outcome.ok && outcome.value.model.stats.triangleCount).toBeGreaterThan(0)
    expect(reports.at(-1)).toEqual([sbm.byteLength, sbm.byteLength])
  })

  it('splits the decode across two workers, the downloading one passing the bytes on: the same model and picks', async () => {
    const given: string[] = []
    const outcome = await decodeFetchedByWorker(
      `${baseUrl}/slow`,
      (source, decodeOptions) => {
        given.push(`${source.kind} ${decodeOptions.share}`)
        return sbmDecodeApi.decode(source, decodeOptions)
      },
      {
        split: true,
        onProgress: (done, total) => {
          if (done > 0 && done < total) releaseLast()
        },
      },
    )!
    const whole = await sbmDecodeApi.decode(sbm.slice().buffer, { forPicking: true })
    if (!outcome.ok || !whole.ok) throw new Error('a decode failed')
    expect(given).toEqual(['forwarded indicesNormalsAndUvs', 'fetchHere positionsAndBvhs'])
    const { model, pickingCopy } = outcome.value
    expect(model.secondShare).toBeUndefined()
    for (const key of ['positions', 'normals', 'uvs', 'indices', 'primitives', 'stats'] as const) {
      expect(model[key]).toEqual(whole.value.model[key])
    }
    expect(pickingCopy?.positions).toEqual(whole.value.pickingCopy?.positions)
    expect(pickingCopy?.indices).toEqual(whole.value.pickingCopy?.indices)
    const split = createBvhApi()
    const reference = createBvhApi()
    split.addDecoded('duck', pickingCopy!)
    reference.addDecoded('duck', whole.value.pickingCopy!)
    await picksAlike(model, split, reference)
    // a download that fails fails both halves, as one failure of the page's kind
    await expect(
      decodeFetchedByWorker(
        `${baseUrl}/missing`,
        (source, decodeOptions) => sbmDecodeApi.decode(source, decodeOptions),
        { split: true },
      ),
    ).rejects.toThrow('download failed: HTTP 404')
    const cut = await decodeFetchedByWorker(
      `${baseUrl}/cut`,
      (source, decodeOptions) => sbmDecodeApi.decode(source, decodeOptions),
      { split: true },
    )!
    expect(cut).toMatchObject({ ok: false, error: { code: 'sbm.downloadFailed' } })
  })

  it('sends nothing when no decode worker is free: the page downloads and posts instead', () => {
    let asked = 0
    expect(
      decodeFetchedByWorker(`${baseUrl}/slow`, () => {
        asked++
        return null
      }),
    ).toBeNull()
    expect(asked).toBe(1)
    // a split with one worker free: the half that took it is let go, nothing is downloaded
    const halves: Promise<unknown>[] = []
    let free = 1
    expect(
      decodeFetchedByWorker(
        `${baseUrl}/slow`,
        (source, decodeOptions) => {
          if (free-- <= 0) return null
          const half = sbmDecodeApi.decode(source, decodeOptions)
          halves.push(half)
          return half
        },
        { split: true },
      ),
    ).toBeNull()
    return expect(halves[0]).resolves.toMatchObject({
      ok: false,
      error: { code: 'sbm.downloadFailed' },
    })
  })
})

describe('downloadAndDecodeSbm', () => {
  /** A one-worker decode pool served in-process, noting how each decode got its bytes. */
  const pool = () => {
    const given: string[] = []
    const api = {
      decode: (
        source: Parameters<typeof sbmDecodeApi.decode>[0],
        options: DecodeRequestOptions,
      ) => {
        given.push(
          source instanceof ArrayBuffer
            ? 'whole file'
            : 'kind' in (source as object)
              ? `worker downloads (${(source as { kind: string }).kind})`
              : 'posted bytes',
        )
        return sbmDecodeApi.decode(source, options)
      },
    }
    return {
      given,
      decodePool: createWorkerPool<typeof sbmDecodeApi>(() => createInProcessWorker(api), {
        maxWorkers: 1,
      }),
    }
  }
  const job = (progress: [number, number][] = []): JobHandle => ({
    jobId: 'job-1' as JobHandle['jobId'],
    signal: new AbortController().signal,
    reportProgress: (done, total) => progress.push([done, total]),
    finish: () => undefined,
  })
  const model = { url: `${'http://127.0.0.1'}/unused`, sizeBytes: 0 }

  it('lets a free decode worker download the model, else the page downloads and posts it', async () => {
    const { given, decodePool } = pool()
    const progress: [number, number][] = []
    const own = await downloadAndDecodeSbm(
      { ...model, url: `${baseUrl}/whole` },
      job(progress),
      decodePool,
      undefined,
      { workerDownloadMinBytes: 0 },
    )
    expect(own.ok && own.value.model.stats.triangleCount).toBeGreaterThan(0)
    expect(given).toEqual(['worker downloads (fetchHere)'])
    expect(progress.at(-1)).toEqual([sbm.byteLength, sbm.byteLength])
    // the only worker is busy: the page downloads, and the chunks wait for the worker
    let release: () => void = () => undefined
    const started = new Promise<void>((isStarted) => {
      void decodePool.run(() => {
        isStarted()
        return new Promise<void>((resolve) => {
          release = resolve
        })
      })
    })
    const queued = downloadAndDecodeSbm(
      { ...model, url: `${baseUrl}/whole` },
      job(),
      decodePool,
      undefined,
      { workerDownloadMinBytes: 0 },
    )
    await started
    release()
    expect((await queued).ok).toBe(true)
    // and with the worker download turned off
    const posted = await downloadAndDecodeSbm(
      { ...model, url: `${baseUrl}/whole` },
      job(),
      decodePool,
      undefined,
      { workerDownload: false, workerDownloadMinBytes: 0 },
    )
    expect(posted.ok).toBe(true)
    // and a small model (under WORKER_DOWNLOAD_MIN_BYTES): read here, its progress seen
    const small = await downloadAndDecodeSbm(
      { url: `${baseUrl}/whole`, sizeBytes: sbm.byteLength },
      job(),
      decodePool,
    )
    expect(small.ok).toBe(true)
    expect(given).toEqual([
      'worker downloads (fetchHere)',
      'posted bytes',
      'posted bytes',
      'posted bytes',
    ])
    decodePool.dispose()
  })
})

describe('receivePostedModel', () => {
  const post = (bytes: Uint8Array) => {
    const channel = new MessageChannel()
    const arriving = receivePostedModel({ port: channel.port2, byteLength: 8 })
    const buffer = bytes.slice().buffer
    channel.port1.postMessage({ kind: 'chunk', bytes: buffer }, [buffer])
    return { arriving, port: channel.port1 }
  }

  it('fails the bytes on an early end, a failure message, or more bytes than declared', async () => {
    const short = post(new Uint8Array(4))
    short.port.postMessage({ kind: 'end' })
    await expect(short.arriving.whenReceived(8)).rejects.toThrow('4 of 8 bytes arrived')
    const failed = post(new Uint8Array(4))
    failed.port.postMessage({ kind: 'failed', message: 'download failed: gone' })
    await expect(failed.arriving.whenReceived(8)).rejects.toThrow('download failed: gone')
    const long = post(new Uint8Array(12))
    await expect(long.arriving.whenReceived(8)).rejects.toThrow('more bytes than the declared')
    const whole = post(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))
    await whole.arriving.whenReceived(8)
    expect([...whole.arriving.bytes]).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('passes chunks on once they are in place, and a failure as a failure', async () => {
    const forwardedTo = (chunks: number[][], last: PostedBytesMessage | null) => {
      const incoming = new MessageChannel()
      const onward = new MessageChannel()
      const arriving = receivePostedModel({
        port: incoming.port2,
        byteLength: 8,
        forwardTo: onward.port1,
      })
      const next = receivePostedModel({ port: onward.port2, byteLength: 8 })
      for (const chunk of chunks) {
        const buffer = new Uint8Array(chunk).buffer
        incoming.port1.postMessage({ kind: 'chunk', bytes: buffer }, [buffer])
      }
      if (last) incoming.port1.postMessage(last)
      return { arriving, next }
    }
    const whole = forwardedTo(
      [
        [1, 2, 3],
        [4, 5, 6, 7, 8],
      ],
      null,
    )
    await whole.next.whenReceived(8)
    expect([...whole.next.bytes]).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect([...whole.arriving.bytes]).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    const failed = forwardedTo([[1, 2]], { kind: 'failed', message: 'download failed: gone' })
    await expect(failed.next.whenReceived(8)).rejects.toThrow('download failed: gone')
    const long = forwardedTo([[1, 2, 3, 4, 5, 6, 7, 8, 9]], null)
    await expect(long.next.whenReceived(8)).rejects.toThrow('more bytes than the declared')
  })
})
