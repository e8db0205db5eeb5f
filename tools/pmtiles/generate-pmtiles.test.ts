import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PMTiles, type RangeResponse, type Source } from 'pmtiles'
import { afterEach, describe, expect, it } from 'vitest'
import { generatePmtilesFile } from './generate-pmtiles'

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

describe('generate-pmtiles CLI', () => {
  it('writes the seeded archive and names the colour of each zoom', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'pmtiles-cli-'))
    directories.push(directory)
    const report = generatePmtilesFile(['map.pmtiles', '--seed', '5', '--max-zoom', '3'], directory)
    expect(report.split('\n')).toHaveLength(1 + 4)
    expect(report).toMatch(/zoom 3: #[0-9a-f]{6}/)
    const bytes = readFileSync(join(directory, 'map.pmtiles'))
    const source: Source = {
      getKey: () => 'map.pmtiles',
      getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
        data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length),
      }),
    }
    expect(await new PMTiles(source).getHeader()).toMatchObject({ minZoom: 0, maxZoom: 3 })
  })

  it('refuses a missing output path or a zoom that is not a number', () => {
    expect(() => generatePmtilesFile([], tmpdir())).toThrow(/usage/)
    expect(() => generatePmtilesFile(['x.pmtiles', '--max-zoom', 'deep'], tmpdir())).toThrow(
      /usage/,
    )
  })
})
