import { useEffect, useRef } from 'react'
import { createParticles, drawParticles, particleCountFor, stepParticles } from './particles'
import './ParticleBackground.css'

/** About 30 frames a second: smooth enough for slow drift at half the cost of 60. */
const minimumFrameIntervalMs = 1000 / 30
/** Sharper than this costs fill rate for a background nobody looks at closely. */
const maximumPixelRatio = 1.5

/** The pages on screen now whose own opaque screen covers the background (see below). */
const coveringPages = new Set<symbol>()
const coverListeners = new Set<() => void>()

/**
 * Says that the calling page covers the whole window with its own opaque screen (the public
 * preview and its kiosk: a full-window scene), so the background rests while it is mounted:
 * its frames would be drawn for nobody, on a kiosk's weak machine, for weeks.
 */
export function useParticleBackgroundCovered(): void {
  useEffect(() => {
    const page = Symbol('covering page')
    coveringPages.add(page)
    for (const listener of coverListeners) listener()
    return () => {
      coveringPages.delete(page)
      for (const listener of coverListeners) listener()
    }
  }, [])
}

/**
 * SPEC §2 "Animated particle background behind all pages". Cheap by design: capped particle
 * count, ~30 fps through requestAnimationFrame, nothing at all while the tab is hidden or a
 * page covers it ({@link useParticleBackgroundCovered}), and a single still frame when the user
 * prefers reduced motion.
 */
export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    const canvas = canvasRef.current
    const context = canvas?.getContext('2d')
    if (!canvas || !context) return

    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)')
    let widthPx = 0
    let heightPx = 0
    let particles = createParticles(0, 0, 0)
    let frameRequest = 0
    let lastFrameAtMs = 0

    function resize() {
      if (!canvas || !context) return
      widthPx = window.innerWidth
      heightPx = window.innerHeight
      const ratio = Math.min(window.devicePixelRatio || 1, maximumPixelRatio)
      canvas.width = Math.round(widthPx * ratio)
      canvas.height = Math.round(heightPx * ratio)
      context.setTransform(ratio, 0, 0, ratio, 0, 0)
      const count = particleCountFor(widthPx, heightPx)
      if (particles.length !== count) particles = createParticles(count, widthPx, heightPx)
      drawParticles(context, particles, widthPx, heightPx)
    }

    function frame(nowMs: number) {
      frameRequest = requestAnimationFrame(frame)
      const elapsedMs = nowMs - lastFrameAtMs
      if (elapsedMs < minimumFrameIntervalMs) return
      lastFrameAtMs = nowMs
      stepParticles(particles, elapsedMs, widthPx, heightPx)
      if (context) drawParticles(context, particles, widthPx, heightPx)
    }

    function start() {
      const isResting =
        reducedMotion?.matches || document.visibilityState === 'hidden' || coveringPages.size > 0
      if (frameRequest || isResting) return
      lastFrameAtMs = performance.now()
      frameRequest = requestAnimationFrame(frame)
    }

    function stop() {
      if (frameRequest) cancelAnimationFrame(frameRequest)
      frameRequest = 0
    }

    function onVisibilityChange() {
      if (document.visibilityState === 'hidden') stop()
      else start()
    }

    function onMotionPreferenceChange() {
      if (reducedMotion?.matches) stop()
      else start()
    }

    function onCoverChange() {
      if (coveringPages.size > 0) stop()
      else start()
    }

    resize()
    start()
    window.addEventListener('resize', resize)
    document.addEventListener('visibilitychange', onVisibilityChange)
    reducedMotion?.addEventListener?.('change', onMotionPreferenceChange)
    coverListeners.add(onCoverChange)
    return () => {
      stop()
      coverListeners.delete(onCoverChange)
      window.removeEventListener('resize', resize)
      document.removeEventListener('visibilitychange', onVisibilityChange)
      reducedMotion?.removeEventListener?.('change', onMotionPreferenceChange)
    }
  }, [])

  // Decoration only: hidden from assistive technology through its wrapper.
  return (
    <div className="ts-particle-background" aria-hidden="true">
      <canvas ref={canvasRef} />
    </div>
  )
}
