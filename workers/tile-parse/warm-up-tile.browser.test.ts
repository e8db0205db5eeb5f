import { describe, expect, it } from 'vitest'
import { parseTileContent } from './tile-content'
import { warmUpTile } from './warm-up-tile'

describe('warmUpTile', () => {
  it('is a textured b3dm that loaders.gl parses fully: one triangle and a decoded 1×1 image', async () => {
    const content = (await parseTileContent(warmUpTile(), 'http://tiles.test/warm-up.b3dm', {
      '3d-tiles': { loadGLTF: true },
      core: { worker: false },
    })) as {
      type: string
      gltf: {
        meshes: { primitives: { attributes: { POSITION: { count: number } } }[] }[]
        images: { image: { width: number; height: number } }[]
      }
    }
    expect(content.type).toBe('b3dm')
    expect(content.gltf.meshes[0]?.primitives[0]?.attributes.POSITION.count).toBe(3)
    expect(content.gltf.images[0]?.image).toMatchObject({ width: 1, height: 1 })
  })
})
