/**
 * When the engine's per-frame work runs. Browsers get requestAnimationFrame (so work stops in
 * hidden tabs and lines up with rendering); Node and tests without it get a 16 ms timer.
 */
export interface FrameScheduler {
  /** Runs `callback` once at the next frame; returns a function that cancels it. */
  requestFrame(callback: (timeMs: number) => void): () => void
}

/** The default scheduler for this environment. */
export function createAnimationFrameScheduler(): FrameScheduler {
  if (typeof requestAnimationFrame === 'function') {
    return {
      requestFrame(callback) {
        const handle = requestAnimationFrame(callback)
        return () => cancelAnimationFrame(handle)
      },
    }
  }
  return {
    requestFrame(callback) {
      const handle = setTimeout(() => callback(performance.now()), 16)
      return () => clearTimeout(handle)
    },
  }
}
