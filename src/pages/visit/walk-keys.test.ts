import { describe, expect, it } from 'vitest'
import { isWalkKey, walkMovementOf } from './walk-keys'

describe('WASD walk keys', () => {
  it('turns held keys into forward and sideways movement, by key place', () => {
    expect(walkMovementOf(['KeyW'])).toEqual({ forward: 1, right: 0 })
    expect(walkMovementOf(['KeyW', 'KeyD'])).toEqual({ forward: 1, right: 1 })
    expect(walkMovementOf(['KeyS', 'KeyA'])).toEqual({ forward: -1, right: -1 })
    // opposite keys cancel; W with the up arrow is still one pace
    expect(walkMovementOf(['KeyW', 'KeyS'])).toEqual({ forward: 0, right: 0 })
    expect(walkMovementOf(['KeyW', 'ArrowUp'])).toEqual({ forward: 1, right: 0 })
    expect(walkMovementOf(['KeyQ', 'Space'])).toEqual({ forward: 0, right: 0 })
    expect([isWalkKey('KeyA'), isWalkKey('Escape'), isWalkKey('a')]).toEqual([true, false, false])
  })
})
