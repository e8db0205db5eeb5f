import { describe, expect, it } from 'vitest'
import type { Capture } from '../../api/visit'
import { movedOrder, startTour, type TourTimers } from './capture-tour'

const capture = (id: string, dwell: number): Capture => ({
  id,
  project_id: 'p',
  name: id,
  seq: 0,
  image_url: `/web/files/${id}.png`,
  camera: { position: [0, 0, 1], target: [0, 0, 0] },
  dwell_seconds: dwell,
  created_at: '2026-01-01T00:00:00.000Z',
})

/** Timers a test runs by hand: `advance` fires the pending one. */
function manualTimers() {
  const pending: Array<{ callback: () => void; delayMs: number }> = []
  const timers: TourTimers = {
    setTimeout: (callback, delayMs) => {
      const entry = { callback, delayMs }
      pending.push(entry)
      return entry
    },
    clearTimeout: (handle) => {
      const at = pending.indexOf(handle as (typeof pending)[number])
      if (at >= 0) pending.splice(at, 1)
    },
  }
  return {
    timers,
    pending,
    advance() {
      const next = pending.shift()
      next?.callback()
      return next?.delayMs
    },
  }
}

describe('capture tour', () => {
  const captures = [capture('a', 2), capture('b', 5), capture('c', 1)]

  it('holds each view for its dwell after the flight to it lands', async () => {
    const clock = manualTimers()
    let land: () => void = () => undefined
    startTour(
      captures,
      () =>
        new Promise<void>((resolve) => {
          land = resolve
        }),
      { timers: clock.timers },
    )
    expect(clock.pending).toHaveLength(0) // still flying: the dwell has not started
    land()
    await Promise.resolve()
    expect(clock.pending.map((entry) => entry.delayMs)).toEqual([2000])
  })

  it('shows the captures in order, each for its dwell time, and loops', () => {
    const clock = manualTimers()
    const shown: string[] = []
    startTour(captures, (item) => shown.push(item.id), { timers: clock.timers })
    const dwells = [clock.advance(), clock.advance(), clock.advance()]
    expect(shown).toEqual(['a', 'b', 'c', 'a'])
    expect(dwells).toEqual([2000, 5000, 1000])
  })

  it('stops where it is asked to, and a one-pass tour ends after the last view', () => {
    const clock = manualTimers()
    const shown: string[] = []
    const tour = startTour(captures, (item) => shown.push(item.id), { timers: clock.timers })
    clock.advance()
    tour.stop()
    expect(clock.pending).toEqual([])
    expect([shown, tour.index]).toEqual([['a', 'b'], 1])

    let ended = 0
    const once = startTour(captures, () => {}, {
      timers: clock.timers,
      loop: false,
      onEnd: () => ended++,
    })
    clock.advance()
    clock.advance()
    clock.advance()
    expect([ended, once.index, clock.pending.length]).toEqual([1, 2, 0])
    expect(startTour([], () => shown.push('never'), { timers: clock.timers }).index).toBe(0)
    expect(shown).not.toContain('never')
  })

  it('moves a capture up or down, clamped at the ends', () => {
    expect(movedOrder(captures, 2, -1)).toEqual(['a', 'c', 'b'])
    expect(movedOrder(captures, 0, 1)).toEqual(['b', 'a', 'c'])
    expect(movedOrder(captures, 0, -1)).toEqual(['a', 'b', 'c'])
  })
})
