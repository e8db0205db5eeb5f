import { fireEvent, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { EngineHandle } from '../../engine-bridge'
import { useWalkInput } from './use-walk-input'

function fakeEngine() {
  const run = vi.fn(async () => undefined)
  return { engine: { run, on: vi.fn() } as unknown as EngineHandle, run }
}

describe('WASD walk input', () => {
  it('sends held keys as movement, drags as looks, and leaves on Esc', () => {
    const { engine, run } = fakeEngine()
    const { unmount } = renderHook(() => useWalkInput(engine, true))
    fireEvent.keyDown(window, { code: 'KeyW', key: 'ㅈ' })
    fireEvent.keyDown(window, { code: 'KeyD', key: 'ㅇ' })
    // a key repeat sends nothing new
    fireEvent.keyDown(window, { code: 'KeyD', key: 'ㅇ' })
    fireEvent.keyUp(window, { code: 'KeyW' })
    const field = document.createElement('input')
    document.body.append(field)
    fireEvent.keyDown(field, { code: 'KeyS', key: 's' })
    field.remove()
    const canvas = document.createElement('canvas')
    document.body.append(canvas)
    fireEvent.pointerDown(canvas, { button: 0, clientX: 100, clientY: 100 })
    fireEvent.pointerMove(window, { clientX: 140, clientY: 92 })
    fireEvent.pointerUp(window)
    fireEvent.pointerMove(window, { clientX: 200, clientY: 50 })
    canvas.remove()
    fireEvent.keyDown(window, { code: 'Escape', key: 'Escape' })
    expect(run.mock.calls).toEqual([
      ['walk.setMovement', { forward: 1, right: 0 }],
      ['walk.setMovement', { forward: 1, right: 1 }],
      ['walk.setMovement', { forward: 0, right: 1 }],
      ['walk.look', { yawDegrees: -10, pitchDegrees: 2 }],
      ['walk.stop'],
    ])
    unmount()
    expect(run.mock.calls.at(-1)).toEqual(['walk.stop'])
  })

  it('listens to nothing while not walking', () => {
    const { engine, run } = fakeEngine()
    renderHook(() => useWalkInput(engine, false))
    fireEvent.keyDown(window, { code: 'KeyW' })
    expect(run).not.toHaveBeenCalled()
  })
})
