import { describe, expect, it } from 'vitest'
import { SpriteAtlas } from './sprite-atlas'

/** The sprite atlas of the city's POI markers, on a real 2D canvas. */

const paintRed = (context: SpriteAtlas['context']) => {
  context.fillStyle = '#ff0000'
  context.fillRect(0, 0, 100, 100)
}

describe('SpriteAtlas', () => {
  it('paints a picture once, where its slot says, at its scale', () => {
    const atlas = new SpriteAtlas(64, 64, 2)
    const slot = atlas.slotOf('a', 10, 8, paintRed)!
    expect(slot).toEqual({ uv: [0, 0, 20 / 64, 16 / 64], width: 10, height: 8 })
    // The same key: the same slot, not painted again.
    expect(atlas.slotOf('a', 10, 8, () => expect.fail('painted twice'))).toBe(slot)
    // A painted picture's slot is known without its size (text is not measured again).
    expect(atlas.knownSlot('a')).toBe(slot)
    expect(atlas.knownSlot('b')).toBeUndefined()
    const next = atlas.slotOf('b', 10, 8, paintRed)!
    expect(next.uv[0]).toBeCloseTo(22 / 64)
    const [red, , , alpha] = atlas.context.getImageData(5, 5, 1, 1).data
    expect([red, alpha]).toEqual([255, 255])
    // Between the two pictures: nothing.
    expect(atlas.context.getImageData(20, 5, 1, 1).data[3]).toBe(0)
  })

  it('starts over with the pictures asked for when it is full, and says so', () => {
    const atlas = new SpriteAtlas(32, 32, 1)
    const keys = ['a', 'b', 'c', 'd', 'e', 'f']
    const first = atlas.slotsOf(keys.slice(0, 4), (key) => atlas.slotOf(key, 14, 14, paintRed))
    expect(first.every((slot) => slot !== null)).toBe(true)
    expect(atlas.generation).toBe(0)
    // Two more do not fit beside the four: the atlas starts over with these two only.
    const second = atlas.slotsOf(keys.slice(4), (key) => atlas.slotOf(key, 14, 14, paintRed))
    expect(atlas.generation).toBe(1)
    // Starting over forgets the pictures painted before.
    expect(atlas.knownSlot('a')).toBeUndefined()
    expect(second.map((slot) => slot?.uv[0])).toEqual([0, 16 / 32])
    // A picture larger than the atlas is never drawn, and does not start it over.
    expect(atlas.slotsOf(['huge'], (key) => atlas.slotOf(key, 40, 10, paintRed))).toEqual([null])
    expect(atlas.generation).toBe(1)
  })
})
