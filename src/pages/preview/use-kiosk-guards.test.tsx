import { act, render } from '@testing-library/react'
import { useRef } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { contextRestoreWaitMs, useKioskGuards } from './use-kiosk-guards'

function Kiosk(props: {
  onIdle?(): void
  onActive?(): void
  onContextLost?(): void
  isKiosk?: boolean
}) {
  const stage = useRef<HTMLDivElement>(null)
  useKioskGuards({
    isKiosk: props.isKiosk ?? true,
    idleMs: 5_000,
    stage,
    onIdle: props.onIdle ?? (() => undefined),
    onActive: props.onActive ?? (() => undefined),
    onContextLost: props.onContextLost ?? (() => undefined),
  })
  return (
    <div ref={stage}>
      <canvas data-testid="scene" />
    </div>
  )
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

describe('kiosk recovery from a lost WebGL context', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  const loseContext = (canvas: HTMLElement): Event => {
    const event = new Event('webglcontextlost', { cancelable: true })
    act(() => {
      canvas.dispatchEvent(event)
    })
    return event
  }

  it('asks the browser for the context back and builds the scene anew when it does not come', () => {
    const onContextLost = vi.fn()
    const view = render(<Kiosk onContextLost={onContextLost} />)
    const lost = loseContext(view.getByTestId('scene'))
    // without preventDefault the browser would never give the context back
    expect(lost.defaultPrevented).toBe(true)
    act(() => vi.advanceTimersByTime(contextRestoreWaitMs - 1))
    expect(onContextLost).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1))
    expect(onContextLost).toHaveBeenCalledTimes(1)
  })

  it('keeps the scene when the browser gives the context back in time', () => {
    const onContextLost = vi.fn()
    const view = render(<Kiosk onContextLost={onContextLost} />)
    const canvas = view.getByTestId('scene')
    loseContext(canvas)
    act(() => {
      canvas.dispatchEvent(new Event('webglcontextrestored'))
    })
    act(() => vi.advanceTimersByTime(contextRestoreWaitMs * 3))
    expect(onContextLost).not.toHaveBeenCalled()
  })

  it('also guards a preview that is not a kiosk, and lets the canvas go when it closes', () => {
    const onContextLost = vi.fn()
    const view = render(<Kiosk isKiosk={false} onContextLost={onContextLost} />)
    const canvas = view.getByTestId('scene')
    loseContext(canvas)
    view.unmount()
    act(() => vi.advanceTimersByTime(contextRestoreWaitMs * 3))
    // the closed preview's timer is gone with it: nothing rebuilds a scene nobody shows
    expect(onContextLost).not.toHaveBeenCalled()
  })
})

describe('kiosk screen wake lock', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'wakeLock')
  })

  const fakeWakeLock = () => {
    const releases: ReturnType<typeof vi.fn>[] = []
    const request = vi.fn(async () => {
      const release = vi.fn(async () => undefined)
      releases.push(release)
      return { release }
    })
    Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true })
    return { request, releases }
  }

  it('keeps the screen on while the kiosk shows, takes the lock again when the page shows again and lets it go on close', async () => {
    const { request, releases } = fakeWakeLock()
    const view = render(<Kiosk />)
    await vi.waitFor(() => expect(request).toHaveBeenCalledWith('screen'))
    // the browser dropped the lock while the page was hidden: visible again, it is asked again
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'))
    })
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(2))
    view.unmount()
    await vi.waitFor(() => expect(releases.at(-1)).toHaveBeenCalled())
  })

  it('lets a lock go that the browser grants only after the kiosk closed', async () => {
    let grant: (lock: { release(): Promise<void> }) => void = () => undefined
    const request = vi.fn(
      () => new Promise<{ release(): Promise<void> }>((resolve) => (grant = resolve)),
    )
    Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true })
    render(<Kiosk />).unmount()
    const release = vi.fn(async () => undefined)
    grant({ release })
    await vi.waitFor(() => expect(release).toHaveBeenCalled())
  })

  it('asks for no lock in a preview that is not a kiosk, nor fails where the browser has none', () => {
    const { request } = fakeWakeLock()
    render(<Kiosk isKiosk={false} />).unmount()
    expect(request).not.toHaveBeenCalled()
    Reflect.deleteProperty(navigator, 'wakeLock')
    expect(() => render(<Kiosk />).unmount()).not.toThrow()
  })
})
