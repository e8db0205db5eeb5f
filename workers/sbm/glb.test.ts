import { describe, expect, it } from 'vitest'
import {
  chunkTypeFromText,
  GLB_CHUNK_BIN,
  GLB_CHUNK_JSON,
  parseGlb,
  peekGlbVersion,
  writeGlb,
} from './glb'
import { NOT_VALID_SBM_MESSAGE, SbmError } from './sbm-error'

/** Builds a GLB by hand, so tests can make every field lie independently. */
function rawGlb(options: {
  magic?: number
  version?: number
  declaredLength?: (actual: number) => number
  chunks: { type: number; data: Uint8Array; declaredLength?: number }[]
}): Uint8Array {
  const bodyLength = options.chunks.reduce((sum, chunk) => sum + 8 + chunk.data.byteLength, 0)
  const bytes = new Uint8Array(12 + bodyLength)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, options.magic ?? 0x46546c67, true)
  view.setUint32(4, options.version ?? 2, true)
  view.setUint32(8, options.declaredLength?.(bytes.byteLength) ?? bytes.byteLength, true)
  let offset = 12
  for (const chunk of options.chunks) {
    view.setUint32(offset, chunk.declaredLength ?? chunk.data.byteLength, true)
    view.setUint32(offset + 4, chunk.type, true)
    bytes.set(chunk.data, offset + 8)
    offset += 8 + chunk.data.byteLength
  }
  return bytes
}

const json = (value: unknown) => {
  const text = JSON.stringify(value)
  return new TextEncoder().encode(text.padEnd(Math.ceil(text.length / 4) * 4, ' '))
}

function refusal(bytes: Uint8Array): string {
  try {
    parseGlb(bytes)
  } catch (error) {
    expect(error).toBeInstanceOf(SbmError)
    expect((error as SbmError).message).toBe(NOT_VALID_SBM_MESSAGE)
    expect((error as SbmError).code).toBe('sbm.invalid')
    return (error as SbmError).detail
  }
  throw new Error('expected a refusal')
}

describe('parseGlb', () => {
  const valid = () =>
    rawGlb({
      chunks: [
        { type: GLB_CHUNK_JSON, data: json({ asset: { version: '2.0' } }) },
        { type: GLB_CHUNK_BIN, data: new Uint8Array([1, 2, 3, 4]) },
        { type: chunkTypeFromText('BVH\0'), data: new Uint8Array([9, 9, 9, 9]) },
      ],
    })

  it('splits a well-formed GLB into JSON, BIN and later chunks', () => {
    const container = parseGlb(valid())
    expect(container.json).toEqual({ asset: { version: '2.0' } })
    expect([...container.bin!]).toEqual([1, 2, 3, 4])
    expect(container.extraChunks).toHaveLength(1)
    expect(container.extraChunks[0]!.type).toBe(chunkTypeFromText('BVH\0'))
  })

  it('refuses empty and truncated files', () => {
    expect(refusal(new Uint8Array(0))).toMatch(/empty/)
    expect(refusal(valid().subarray(0, 10))).toMatch(/too short/)
    expect(refusal(valid().subarray(0, valid().byteLength - 4))).toMatch(/declares/)
  })

  it('refuses a wrong magic and glTF 1.0 binaries', () => {
    const notGlb = valid()
    notGlb[0] = 0x50
    expect(refusal(notGlb)).toMatch(/magic/)
    expect(refusal(rawGlb({ version: 1, chunks: [{ type: 0, data: json({}) }] }))).toMatch(
      /version 1/,
    )
  })

  it('refuses a header length that differs from the file, in either direction', () => {
    const tooLong = rawGlb({
      declaredLength: (actual) => actual + 4,
      chunks: [{ type: GLB_CHUNK_JSON, data: json({}) }],
    })
    expect(refusal(tooLong)).toMatch(/declares \d+ bytes but the file has/)
    const padded = new Uint8Array(valid().byteLength + 8)
    padded.set(valid())
    expect(refusal(padded)).toMatch(/declares \d+ bytes but the file has/)
  })

  it('refuses chunks whose lengths lie', () => {
    const longJson = rawGlb({
      chunks: [{ type: GLB_CHUNK_JSON, data: json({ a: 1 }), declaredLength: 1 << 30 }],
    })
    expect(refusal(longJson)).toMatch(/declares 1073741824 bytes, only/)
    const longBin = rawGlb({
      chunks: [
        { type: GLB_CHUNK_JSON, data: json({ a: 1 }) },
        { type: GLB_CHUNK_BIN, data: new Uint8Array(8), declaredLength: 12 },
      ],
    })
    expect(refusal(longBin)).toMatch(/'BIN\\x0' .* declares 12 bytes/)
    const unaligned = rawGlb({
      chunks: [
        { type: GLB_CHUNK_JSON, data: json({ a: 1 }) },
        { type: GLB_CHUNK_BIN, data: new Uint8Array(5), declaredLength: 5 },
      ],
    })
    expect(refusal(unaligned)).toMatch(/not 4-aligned/)
  })

  it('refuses a missing or broken JSON chunk and duplicated chunks', () => {
    expect(refusal(rawGlb({ chunks: [{ type: GLB_CHUNK_BIN, data: new Uint8Array(4) }] }))).toMatch(
      /first chunk is not JSON/,
    )
    const broken = new TextEncoder().encode('{"a":')
    expect(
      refusal(
        rawGlb({
          chunks: [{ type: GLB_CHUNK_JSON, data: new Uint8Array([...broken, 32, 32, 32]) }],
        }),
      ),
    ).toMatch(/does not parse/)
    expect(refusal(rawGlb({ chunks: [{ type: GLB_CHUNK_JSON, data: json([1, 2]) }] }))).toMatch(
      /not an object/,
    )
    const twoBins = rawGlb({
      chunks: [
        { type: GLB_CHUNK_JSON, data: json({}) },
        { type: GLB_CHUNK_BIN, data: new Uint8Array(4) },
        { type: GLB_CHUNK_BIN, data: new Uint8Array(4) },
      ],
    })
    expect(refusal(twoBins)).toMatch(/second 'BIN/)
  })

  it('refuses JSON that is not UTF-8', () => {
    const latin1 = new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d, 0x20])
    expect(refusal(rawGlb({ chunks: [{ type: GLB_CHUNK_JSON, data: latin1 }] }))).toMatch(
      /does not parse/,
    )
  })
})

describe('writeGlb', () => {
  it('pads every chunk to 4 bytes and reads back what it wrote', () => {
    const bytes = writeGlb({
      json: { asset: { version: '2.0' }, extras: { name: 'é' } },
      bin: new Uint8Array([1, 2, 3, 4, 5]),
      extraChunks: [{ type: chunkTypeFromText('BVH\0'), data: new Uint8Array([7, 7]) }],
    })
    expect(bytes.byteLength % 4).toBe(0)
    expect(peekGlbVersion(bytes)).toBe(2)
    const container = parseGlb(bytes)
    expect(container.json).toEqual({ asset: { version: '2.0' }, extras: { name: 'é' } })
    expect([...container.bin!]).toEqual([1, 2, 3, 4, 5, 0, 0, 0])
    expect([...container.extraChunks[0]!.data]).toEqual([7, 7, 0, 0])
  })
})
