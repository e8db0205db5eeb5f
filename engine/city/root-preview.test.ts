import { readFileSync } from 'node:fs'
import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import { calculateTransformProps, Tileset3D } from '@loaders.gl/tiles'
import { Matrix4, Vector3 } from '@math.gl/core'
import { describe, expect, it } from 'vitest'
import { parseTileContent } from '../../workers/tile-parse/tile-content'
import { rootTileOf } from '../../workers/tile-parse/root-tile'
import { rootPreviewTile } from './root-preview'
import { collectTileMeshes, type TileGltf } from './tile-meshes'
import { placementModelMatrix } from './tileset-placement'

const fixtures = new URL('./fixtures/batched/', import.meta.url)
const tilesetUrl = 'http://tiles.test/batched/tileset.json'

function readFixture(name: string): ArrayBuffer {
  const bytes = readFileSync(new URL(name, fixtures))
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

const tilesetJson = () => JSON.parse(new TextDecoder().decode(readFixture('tileset.json')))

function parseRootContent(): Promise<Record<string, unknown>> {
  return parseTileContent(readFixture('batchedWithBatchTable.b3dm'), `${tilesetUrl}/../x.b3dm`, {
    '3d-tiles': { loadGLTF: true, assetGltfUpAxis: 'Y' },
    core: { worker: false },
  })
}

/** Where a drawn vertex lands: east-north-up metres from the origin, and the origin. */
function firstVertexOf(
  meshes: ReturnType<typeof collectTileMeshes>,
  modelMatrix: number[],
  origin: number[],
): { origin: number[]; enu: number[] } {
  const mesh = meshes[0]!
  const vertex = new Vector3(mesh.positions[0], mesh.positions[1], mesh.positions[2])
  const enu = new Matrix4(modelMatrix).multiplyRight(mesh.matrix).transformAsPoint(vertex)
  return { origin: [...origin], enu: [...enu] }
}

describe('rootTileOf', () => {
  it('reads the root content URL as loaders.gl resolves it, with the up axis and transform', () => {
    const json = tilesetJson()
    expect(rootTileOf(tilesetUrl, json)).toEqual({
      contentUrl: 'http://tiles.test/batched/batchedWithBatchTable.b3dm',
      gltfUpAxis: 'Y',
      transform: [...Matrix4.IDENTITY],
      boundingVolume: json.root.boundingVolume,
    })
    const spaced = {
      asset: { gltfUpAxis: 'Z' },
      root: { ...json.root, content: { uri: 'a b/c.glb' } },
    }
    expect(rootTileOf(tilesetUrl, spaced)).toMatchObject({
      contentUrl: 'http://tiles.test/batched/a b/c.glb',
      gltfUpAxis: 'Z',
    })
  })

  it('has no preview for nested tilesets, templates, request volumes, odd roots and queries', () => {
    const root = tilesetJson().root
    const without = [
      { root: { ...root, content: { uri: 'city/tileset.json' } } },
      { root: { ...root, content: { uri: 'c/{level}/{x}/{y}.glb' }, implicitTiling: {} } },
      { root: { ...root, viewerRequestVolume: { sphere: [0, 0, 0, 10] } } },
      { root: { ...root, transform: [1, 2, 3] } },
      { root: { ...root, boundingVolume: undefined } },
      { root: { ...root, content: undefined } },
      { root: { ...root, content: { uri: 'data:application/octet-stream;base64,AAAA' } } },
      null,
      'tileset',
    ]
    for (const json of without) expect(rootTileOf(tilesetUrl, json)).toBeUndefined()
    expect(rootTileOf(`${tilesetUrl}?key=1`, tilesetJson())).toBeUndefined()
    expect(rootTileOf('batched/tileset.json', tilesetJson())).toBeUndefined()
  })
})

describe('rootPreviewTile', () => {
  it('draws the root where loaders.gl places it, placement included, without changing the content', async () => {
    const placement = placementModelMatrix({
      lng: 116.39,
      lat: 39.9,
      heightOffset: 12,
      heading: 30,
    })
    const root = rootTileOf(tilesetUrl, tilesetJson())!
    const previewContent = await parseRootContent()
    const gltfBefore = JSON.stringify((previewContent.gltf as { nodes?: unknown }).nodes)
    const preview = rootPreviewTile(root, placement, previewContent, 'maplibre')!
    expect(JSON.stringify((previewContent.gltf as { nodes?: unknown }).nodes)).toBe(gltfBefore)
    expect(preview.viewportIds).toEqual(['maplibre'])
    expect(preview.content.meshes.length).toBeGreaterThan(0)

    // loaders.gl's own way: its Tileset3D's root tile, then the placement it computes on load.
    const parsedTileset = await Tiles3DLoader.parse(
      readFixture('tileset.json'),
      { '3d-tiles': { isTileset: true } } as never,
      { url: tilesetUrl } as never,
    )
    const tileset = new Tileset3D(parsedTileset, { modelMatrix: placement })
    await tileset.tilesetInitializationPromise
    const loadedContent = await parseRootContent()
    calculateTransformProps(tileset.root as never, loadedContent)

    const ours = firstVertexOf(
      preview.content.meshes,
      preview.content.modelMatrix,
      preview.content.cartographicOrigin,
    )
    const theirs = firstVertexOf(
      collectTileMeshes(loadedContent.gltf as TileGltf),
      loadedContent.cartographicModelMatrix as number[],
      loadedContent.cartographicOrigin as number[],
    )
    for (const [index, value] of ours.origin.entries()) {
      expect(value).toBeCloseTo(theirs.origin[index]!, 9)
    }
    for (const [index, value] of ours.enu.entries()) {
      expect(value).toBeCloseTo(theirs.enu[index]!, 4)
    }
    // The placement is applied: unplaced, the same vertex lands elsewhere.
    const unplaced = rootPreviewTile(root, undefined, await parseRootContent(), 'maplibre')!
    const unplacedVertex = firstVertexOf(
      unplaced.content.meshes,
      unplaced.content.modelMatrix,
      unplaced.content.cartographicOrigin,
    )
    expect(new Vector3(unplacedVertex.enu).distance(ours.enu)).toBeGreaterThan(1_000)
  })

  it('has no preview for contents the mesh layer does not draw', () => {
    const root = rootTileOf(tilesetUrl, tilesetJson())!
    expect(rootPreviewTile(root, undefined, { type: 'pnts' }, 'maplibre')).toBeNull()
    expect(rootPreviewTile(root, undefined, undefined, 'maplibre')).toBeNull()
    expect(
      rootPreviewTile(root, undefined, { type: 'i3dm', gltf: {}, instances: [] }, 'maplibre'),
    ).toBeNull()
  })
})
