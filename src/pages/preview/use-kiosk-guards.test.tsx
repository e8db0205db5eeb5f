import { act, render } from '@testing-library/react'
import { useRef } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useKioskGuards } from './use-kiosk-guards'

function Kiosk(props: { onIdle(): void; onActive(): void }) {
  const stage = useRef<HTMLDivElement>(null)
  useKioskGuards({ isKiosk: true, idleMs: 5_000, stage, onContextLost: () => undefined, ...props })
  return <div ref={stage} />
}

describe('kiosk idle timer', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('asks again after each idle spell, so a tour whose captures came late still starts', () => {
    const onIdle = vi.fn()
    const onActive = vi.fn()
    render(<Kiosk onIdle={onIdle} onActive={onActive} />)
    act(() => vi.advanceTimersByTime(4_999))
    expect(onIdle).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1))
    expect(onIdle).toHaveBeenCalledTimes(1)
    act(() => vi.advanceTimersByTime(5_000))
    expect(onIdle).toHaveBeenCalledTimes(2)
    // a touch ends the idle spell and starts the count again
    act(() => {
      window.dispatchEvent(new Event('keydown'))
    })
    expect(onActive).toHaveBeenCalledTimes(1)
    act(() => vi.advanceTimersByTime(4_000))
    expect(onIdle).toHaveBeenCalledTimes(2)
    act(() => vi.advanceTimersByTime(1_000))
    expect(onIdle).toHaveBeenCalledTimes(3)
  })
})
