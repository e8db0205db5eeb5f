import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import { parse } from '@loaders.gl/core'
import { Ellipsoid } from '@math.gl/geospatial'
import { afterEach, describe, expect, it } from 'vitest'
import { benchTilesetRecipe, generateTileset } from './generate-tileset'

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'tileset-'))
  directories.push(directory)
  return directory
}

const smallRecipe = { ...benchTilesetRecipe, depth: 2, texturePixels: 16 }

describe('generateTileset', () => {
  it('writes a georeferenced quadtree: 1 + 4 + 16 tiles, errors shrinking to 0 at the leaves', () => {
    const directory = temporaryDirectory()
    const generated = generateTileset(smallRecipe, directory)
    expect(generated.tileCount).toBe(21)
    const tileset = JSON.parse(readFileSync(generated.tilesetPath, 'utf8'))
    expect(tileset.asset.version).toBe('1.0')
    const [lng, lat] = Ellipsoid.WGS84.cartesianToCartographic(tileset.root.transform.slice(12, 15))
    expect(lng).toBeCloseTo(121.6, 9)
    expect(lat).toBeCloseTo(31.2, 9)
    expect(tileset.root.children).toHaveLength(4)
    const leaf = tileset.root.children[3].children[3]
    expect(leaf.geometricError).toBe(0)
    expect(tileset.root.geometricError).toBeGreaterThan(tileset.root.children[0].geometricError)
  })

  it('gives the same bytes for the same seed and different bytes for another', () => {
    const first = generateTileset(smallRecipe, temporaryDirectory())
    const again = generateTileset(smallRecipe, temporaryDirectory())
    const other = generateTileset({ ...smallRecipe, seed: 8 }, temporaryDirectory())
    const tile = (path: string) => readFileSync(join(path, '..', 'tiles/2/1/3.b3dm'))
    expect(tile(first.tilesetPath).equals(tile(again.tilesetPath))).toBe(true)
    expect(tile(first.tilesetPath).equals(tile(other.tilesetPath))).toBe(false)
  })

  it('writes b3dm tiles that loaders.gl parses into a textured glTF', async () => {
    const generated = generateTileset(smallRecipe, temporaryDirectory())
    const bytes = readFileSync(join(generated.tilesetPath, '..', 'tiles/1/0/1.b3dm'))
    const content = (await parse(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      Tiles3DLoader,
      // Node has no image decoder; the PNG's presence is checked from the glTF JSON.
      { '3d-tiles': { isTileset: false }, gltf: { loadImages: false } },
    )) as { type: string; gltf: { images?: { mimeType?: string }[]; meshes: unknown[] } }
    expect(content.type).toBe('b3dm')
    expect(content.gltf.meshes).toHaveLength(1)
    expect(content.gltf.images?.[0]?.mimeType).toBe('image/png')
  })
})
