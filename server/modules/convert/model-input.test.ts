import { describe, expect, it } from 'vitest'
import { findResource, modelInputFromFiles, resourceCandidates } from './model-input'

describe('resourceCandidates', () => {
  it.each([
    ['Duck0.bin', ['Duck0.bin']],
    ['./duckCM.tga', ['duckCM.tga']],
    ['textures/wood%20grain.png', ['textures/wood grain.png', 'wood grain.png']],
    ['..\\LWO\\LWO2\\earthSpherical.jpg', ['../LWO/LWO2/earthSpherical.jpg', 'earthSpherical.jpg']],
    ['D:\\projects\\models\\SpiderTex.jpg', ['SpiderTex.jpg']],
    ['file:///C:/models/wall.jpg', ['wall.jpg']],
    ['/etc/passwd', ['passwd']],
    ['100%.png', ['100%.png']],
  ])('%s → %j', (uri, expected) => {
    expect(resourceCandidates(uri)).toEqual(expected)
  })
})

describe('modelInputFromFiles', () => {
  const files = new Map([
    ['house/house.gltf', new Uint8Array([1])],
    ['house/textures/Brick.PNG', new Uint8Array([2])],
    ['house/house.bin', new Uint8Array([3])],
    ['outside.bin', new Uint8Array([4])],
  ])
  const input = modelInputFromFiles('house/house.gltf', files)

  it('resolves paths relative to the model, ignoring case', async () => {
    expect(input.fileName).toBe('house.gltf')
    expect(await input.readResource('house.bin')).toEqual(new Uint8Array([3]))
    expect(await input.readResource('textures/brick.png')).toEqual(new Uint8Array([2]))
    expect(await input.readResource('../outside.bin')).toEqual(new Uint8Array([4]))
  })

  it('finds nothing above the upload and falls back to base names', async () => {
    expect(await input.readResource('../../outside.bin')).toBeNull()
    expect(await findResource(input, 'C:\\Users\\me\\house.bin')).toEqual({
      path: 'house.bin',
      bytes: new Uint8Array([3]),
    })
  })
})
