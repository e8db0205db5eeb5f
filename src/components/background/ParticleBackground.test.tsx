import { act, render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ParticleBackground, useParticleBackgroundCovered } from './ParticleBackground'

function CoveringPage() {
  useParticleBackgroundCovered()
  return null
}

/** A 2D context that counts full redraws (each starts with clearRect). */
function countingContext() {
  const context = {
    redraws: 0,
    clearRect() {
      context.redraws += 1
    },
    setTransform() {},
    beginPath() {},
    moveTo() {},
    lineTo() {},
    stroke() {},
    arc() {},
    fill() {},
    lineWidth: 1,
    strokeStyle: '',
    fillStyle: '',
  }
  return context
}

let context: ReturnType<typeof countingContext>
let pendingFrames: Map<number, FrameRequestCallback>
let nextFrameId: number
let visibility: DocumentVisibilityState

function setVisibility(state: DocumentVisibilityState) {
  visibility = state
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

function prefersReducedMotion(isReduced: boolean) {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: isReduced && query.includes('prefers-reduced-motion'),
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList,
  )
}

/** Runs every frame the component asked for, at the given time. */
function runFrames(nowMs: number) {
  const frames = [...pendingFrames.entries()]
  pendingFrames.clear()
  for (const [, callback] of frames) callback(nowMs)
}

beforeEach(() => {
  context = countingContext()
  pendingFrames = new Map()
  nextFrameId = 1
  visibility = 'visible'
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => context as unknown as CanvasRenderingContext2D,
  )
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    const id = nextFrameId++
    pendingFrames.set(id, callback)
    return id
  })
  vi.stubGlobal('cancelAnimationFrame', (id: number) => pendingFrames.delete(id))
  vi.spyOn(performance, 'now').mockReturnValue(0)
})

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('ParticleBackground', () => {
  it('animates through requestAnimationFrame at about 30 fps', () => {
    prefersReducedMotion(false)
    render(<ParticleBackground />)
    const redrawsAfterFirstFrame = context.redraws
    expect(pendingFrames.size).toBe(1)
    // 10 ms later is too soon for a 30 fps frame: nothing is drawn, the loop keeps going.
    runFrames(10)
    expect(context.redraws).toBe(redrawsAfterFirstFrame)
    runFrames(40)
    expect(context.redraws).toBe(redrawsAfterFirstFrame + 1)
    expect(pendingFrames.size).toBe(1)
  })

  it('stops while the tab is hidden and resumes when it shows again', () => {
    prefersReducedMotion(false)
    render(<ParticleBackground />)
    setVisibility('hidden')
    expect(pendingFrames.size).toBe(0)
    setVisibility('visible')
    expect(pendingFrames.size).toBe(1)
  })

  it('draws one still frame when the user prefers reduced motion', () => {
    prefersReducedMotion(true)
    render(<ParticleBackground />)
    expect(context.redraws).toBe(1)
    expect(pendingFrames.size).toBe(0)
    setVisibility('hidden')
    setVisibility('visible')
    expect(pendingFrames.size).toBe(0)
  })

  it('rests while a page covers the whole window, and moves again when it closes', () => {
    prefersReducedMotion(false)
    render(<ParticleBackground />)
    expect(pendingFrames.size).toBe(1)
    const page = render(<CoveringPage />)
    expect(pendingFrames.size).toBe(0)
    // the tab hidden and shown again under the covering page: still at rest
    setVisibility('hidden')
    setVisibility('visible')
    expect(pendingFrames.size).toBe(0)
    page.unmount()
    expect(pendingFrames.size).toBe(1)
  })

  it('does not start under a page that covered the window before it', () => {
    prefersReducedMotion(false)
    const page = render(<CoveringPage />)
    render(<ParticleBackground />)
    // the still frame is drawn (the page may open its own screen a moment later), no loop
    expect(context.redraws).toBe(1)
    expect(pendingFrames.size).toBe(0)
    page.unmount()
    expect(pendingFrames.size).toBe(1)
  })

  it('stops its loop when unmounted', () => {
    prefersReducedMotion(false)
    const { unmount } = render(<ParticleBackground />)
    unmount()
    expect(pendingFrames.size).toBe(0)
  })
})
