import { readFile } from 'node:fs/promises'
import fc from 'fast-check'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { notValidSbmMessage } from '../../../contract/building'
import { AppError } from '../../http/app-error'
import { displayNameOf, findSymlinkEntry, inspectSbm, readModelFilesFromZip } from './model-files'

const fixtures = new URL('../../../workers/sbm/fixtures/', import.meta.url)

async function refusalOf(action: () => unknown): Promise<AppError | undefined> {
  try {
    await action()
    return undefined
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return error
  }
}

describe('model files', () => {
  it('describes a valid SBM and refuses anything else with the SBM message', async () => {
    const sbm = new Uint8Array(await readFile(new URL('two-storeys.sbm', fixtures)))
    expect(inspectSbm('a.sbm', sbm).info.floors.map((floor) => floor.id)).toEqual(['F1', 'F2'])
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(sbm.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.nat(sbm.length),
        async (edits, cutAt) => {
          const damaged = sbm.slice(0, Math.max(cutAt, 1))
          for (const [offset, value] of edits) if (offset < damaged.length) damaged[offset] = value
          const refusal = await refusalOf(() => inspectSbm('damaged.sbm', damaged))
          // a few edits land in padding or harmless JSON; everything else is refused cleanly
          if (refusal) {
            expect(refusal.kind).toBe('unsupportedFile')
            expect(refusal.message).toBe(notValidSbmMessage)
            expect(refusal.details).toEqual([{ file: 'damaged.sbm', reason: expect.any(String) }])
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('answers damaged or hostile archives with an AppError, never anything else', async () => {
    const sbm = new Uint8Array(await readFile(new URL('duck.sbm', fixtures)))
    const zip = zipSync({ 'floor/a.sbm': sbm, 'floor/b.sbm': sbm.subarray(0, 2_000) })
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(zip.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.nat(zip.length),
        async (edits, cutAt) => {
          const damaged = zip.slice(0, Math.max(cutAt, 1))
          for (const [offset, value] of edits) if (offset < damaged.length) damaged[offset] = value
          const refusal = await refusalOf(() => readModelFilesFromZip('upload.zip', damaged))
          if (refusal) expect(refusal.httpStatus).toBeLessThan(500)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('finds symbolic links by their Unix mode and leaves plain entries alone', () => {
    const zip = Buffer.from(zipSync({ 'a.sbm': new Uint8Array(4), 'b.sbm': new Uint8Array(4) }))
    expect(findSymlinkEntry(zip)).toBeUndefined()
    const at = zip.indexOf(Buffer.from('b.sbm'), zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]))) - 46
    zip.writeUInt16LE((3 << 8) | 20, at + 4)
    zip.writeUInt32LE((0o120777 << 16) >>> 0, at + 38)
    expect(findSymlinkEntry(zip)).toBe('b.sbm')
  })

  it('reduces client file names to a last segment without control characters', () => {
    expect(displayNameOf('../../etc/passwd')).toBe('passwd')
    expect(displayNameOf('C:\\models\\floor 1.sbm')).toBe('floor 1.sbm')
    expect(displayNameOf('a\u0000b.sbm')).toBe('ab.sbm')
  })
})
