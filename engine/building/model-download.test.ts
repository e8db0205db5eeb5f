import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Box3, Matrix4, Vector3 } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AddSbmOutcome, createBvhApi } from '../../workers/bvh/bvh-api'
import { type PostedBytesMessage, receivePostedModel } from '../../workers/sbm/posted-bytes'
import { type DecodeRequestOptions, sbmDecodeApi } from '../../workers/sbm/sbm-decode-api'
import { DownloadError } from './fetch-with-progress'
import { type DecodeModel, decodeForDrawingAndPicking, fetchAndDecodeSbm } from './model-download'

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

beforeAll(async () => {
  sbm = new Uint8Array(
    await readFile(new URL('../../workers/sbm/fixtures/duck.sbm', import.meta.url)),
  )
  server = createServer((request, response) => {
    const send = (headers: Record<string, string>, bytes: Uint8Array) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary', ...headers })
      response.end(bytes)
    }
    if (request.url === '/missing') {
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
      releaseLast = () => response.end(sbm.subarray(sbm.byteLength - 1000))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

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
    const [minX, minY, minZ, maxX, maxY, maxZ] = whole.value.model.primitives[0]!.boundingBox
    const box = new Box3(new Vector3(minX, minY, minZ), new Vector3(maxX, maxY, maxZ)).applyMatrix4(
      new Matrix4().fromArray(whole.value.model.instances[0]!.matrixWorld),
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
      const hit = await split.raycast(ray)
      if (hit) hits++
      expect(hit).toEqual(await reference.raycast(ray))
    }
    expect(hits).toBeGreaterThan(0)
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
