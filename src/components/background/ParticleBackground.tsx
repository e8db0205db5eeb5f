import { useEffect, useRef } from 'react'
import { createParticles, drawParticles, particleCountFor, stepParticles } from './particles'
import './ParticleBackground.css'

/** About 30 frames a second: smooth enough for slow drift at half the cost of 60. */
const minimumFrameIntervalMs = 1000 / 30
/** Sharper than this costs fill rate for a background nobody looks at closely. */
const maximumPixelRatio = 1.5

/**
 * SPEC §2 "Animated particle background behind all pages". Cheap by design: capped particle
 * count, ~30 fps through requestAnimationFrame, nothing at all while the tab is hidden, and a
 * single still frame when the user prefers reduced motion.
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
      if (frameRequest || reducedMotion?.matches || document.visibilityState === 'hidden') return
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

    resize()
    start()
    window.addEventListener('resize', resize)
    document.addEventListener('visibilitychange', onVisibilityChange)
    reducedMotion?.addEventListener?.('change', onMotionPreferenceChange)
    return () => {
      stop()
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
