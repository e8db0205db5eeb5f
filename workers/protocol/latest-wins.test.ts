import { describe, expect, it } from 'vitest'
import { createLatestWinsGate, STALE, yieldToQueuedMessages } from './latest-wins'

describe('createLatestWinsGate', () => {
  it('runs only the newest of requests that arrive while the first is still waiting', async () => {
    let release: () => void = () => {}
    const gate = createLatestWinsGate(() => new Promise<void>((resolve) => (release = resolve)))
    const ran: number[] = []
    const first = gate(() => ran.push(1))
    const releaseFirst = release
    const second = gate(() => ran.push(2))
    const releaseSecond = release
    const third = gate(() => ran.push(3))
    releaseFirst()
    releaseSecond()
    release()
    expect(await Promise.all([first, second, third])).toEqual([STALE, STALE, 1])
    expect(ran).toEqual([3])
  })

  it('answers every request that arrives after the previous one was answered', async () => {
    const gate = createLatestWinsGate(yieldToQueuedMessages)
    expect(await gate(() => 'a')).toBe('a')
    expect(await gate(() => 'b')).toBe('b')
  })

  it('drops requests queued behind a newer one when yielding through the real message queue', async () => {
    const gate = createLatestWinsGate(yieldToQueuedMessages)
    const answers = await Promise.all([gate(() => 1), gate(() => 2), gate(() => 3)])
    expect(answers).toEqual([STALE, STALE, 3])
  })
})
