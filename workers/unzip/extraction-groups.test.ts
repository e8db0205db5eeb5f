import { describe, expect, it } from 'vitest'
import { toArchiveSource } from './archive-source'
import { extractedFileBytes } from './extracted-archive'
import { mergeExtractedArchives, planExtractionGroups } from './extraction-groups'
import { extractArchive } from './zip-extractor'
import { readArchiveDirectory } from './zip-reader'
import { sampleBytes, zipOf } from './zip-test-fixtures'

describe('planExtractionGroups', () => {
  const files: Record<string, Uint8Array> = {}
  for (let index = 0; index < 12; index++) {
    files[`tiles/${String(index).padStart(2, '0')}.b3dm`] = sampleBytes(
      index === 3 ? 60_000 : 10_000,
      index,
    )
  }
  files['readme/'] = new Uint8Array(0)
  const zip = zipOf(files)

  it('covers every selected file once, in archive order, in groups of similar compressed size', async () => {
    const listing = await readArchiveDirectory(toArchiveSource(zip))
    const groups = planExtractionGroups(listing, undefined, 3, 1000)
    expect(groups).toHaveLength(3)
    expect(groups.flat()).toEqual(Object.keys(files).filter((name) => !name.endsWith('/')))
    const compressedOf = (names: string[]) =>
      names.reduce(
        (sum, name) =>
          sum + listing.entries.find((entry) => entry.name === name)!.compressedSizeBytes,
        0,
      )
    const sizes = groups.map(compressedOf)
    const total = sizes.reduce((a, b) => a + b, 0)
    for (const size of sizes) expect(size).toBeLessThan(total * 0.6)
  })

  it('keeps small selections in one group and never makes empty groups', async () => {
    const listing = await readArchiveDirectory(toArchiveSource(zip))
    expect(planExtractionGroups(listing, undefined, 4, 1e9)).toHaveLength(1)
    const two = planExtractionGroups(listing, ['tiles/00.b3dm', 'tiles/01.b3dm'], 8, 1)
    expect(two).toEqual([['tiles/00.b3dm'], ['tiles/01.b3dm']])
    expect(() => planExtractionGroups(listing, ['nope.glb'], 2, 1)).toThrow('nope.glb')
  })
})

describe('mergeExtractedArchives', () => {
  it('joins group results so every file still finds its bytes', async () => {
    const zip = zipOf({
      'a.bin': sampleBytes(3000, 1),
      'b.bin': sampleBytes(5000, 2),
      'c.bin': sampleBytes(7000, 3),
    })
    const first = await extractArchive(zip, { names: ['a.bin'] })
    const rest = await extractArchive(zip, { names: ['b.bin', 'c.bin'], packSizeBytes: 6000 })
    const merged = mergeExtractedArchives([first, rest])
    expect(merged.packs).toHaveLength(first.packs.length + rest.packs.length)
    expect(merged.files.map((file) => file.name)).toEqual(['a.bin', 'b.bin', 'c.bin'])
    expect(merged.totalSizeBytes).toBe(15_000)
    for (const [index, file] of merged.files.entries()) {
      expect(extractedFileBytes(merged, file)).toEqual(sampleBytes(3000 + 2000 * index, index + 1))
    }
  })
})
