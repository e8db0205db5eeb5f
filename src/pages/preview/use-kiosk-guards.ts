import { type RefObject, useEffect, useRef } from 'react'

/** A lost WebGL context that has not come back after this long makes the scene anew. */
export const contextRestoreWaitMs = 3_000

const activityEvents = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const

/** What {@link useKioskGuards} watches and whom it tells. */
export interface KioskGuardOptions {
  isKiosk: boolean
  /** Kiosk: how long without interaction before `onIdle`. */
  idleMs: number
  /** The element holding the scene's canvas. */
  stage: RefObject<HTMLElement | null>
  /**
   * Kiosk: nobody touched the screen for `idleMs` (start the tour, go back to the start); told
   * again after each further `idleMs` while nobody does.
   */
  onIdle(): void
  /** Kiosk: somebody interacts (stop the tour). */
  onActive(): void
  /** The canvas lost its WebGL context and the browser did not give it back. */
  onContextLost(): void
}

/**
 * The unattended side of a preview: the idle timer, full screen on the first touch and a
 * screen wake lock (where the browser has them) in kiosk mode, and in every preview the
 * recovery from a lost WebGL context (a GPU reset, a driver update, too many contexts).
 */
export function useKioskGuards(options: KioskGuardOptions): void {
  const latest = useRef(options)
  latest.current = options
  const { isKiosk, idleMs, stage } = options

  useEffect(() => {
    if (!isKiosk) return
    let idleTimer: ReturnType<typeof setTimeout> | undefined
    let isIdle = false
    const arm = () => {
      clearTimeout(idleTimer)
      idleTimer = setTimeout(() => {
        isIdle = true
        latest.current.onIdle()
        // and again after every further idle spell: what the first one lacked (captures still
        // loading on a slow start) may have come since, and nobody will touch the screen to ask
        arm()
      }, idleMs)
    }
    const onActivity = (event: Event) => {
      if (isIdle) {
        isIdle = false
        latest.current.onActive()
      }
      arm()
      if (event.type === 'pointerdown' && !document.fullscreenElement) {
        // full screen needs a user gesture: the first touch of the kiosk screen
        void document.documentElement.requestFullscreen?.().catch(() => undefined)
      }
    }
    for (const type of activityEvents) window.addEventListener(type, onActivity, { passive: true })
    arm()

    let wakeLock: { release(): Promise<void> } | null = null
    let isClosed = false
    const lockScreen = () => {
      if (document.visibilityState !== 'visible') return
      // not in every browser (nor in its type before it was standardised)
      const wake = (navigator as Partial<Pick<Navigator, 'wakeLock'>>).wakeLock
      wake?.request('screen').then(
        (lock) => {
          // a lock granted after the kiosk closed would keep the screen on for nobody
          if (isClosed) void lock.release().catch(() => undefined)
          else wakeLock = lock
        },
        () => undefined,
      )
    }
    lockScreen()
    // the browser drops the lock when the page is hidden; take it again when it shows
    document.addEventListener('visibilitychange', lockScreen)
    return () => {
      isClosed = true
      clearTimeout(idleTimer)
      for (const type of activityEvents) window.removeEventListener(type, onActivity)
      document.removeEventListener('visibilitychange', lockScreen)
      void wakeLock?.release().catch(() => undefined)
    }
  }, [isKiosk, idleMs])

  useEffect(() => {
    const canvas = stage.current?.querySelector('canvas')
    if (!canvas) return
    let restoreTimer: ReturnType<typeof setTimeout> | undefined
    const onLost = (event: Event) => {
      // asks the browser to give the context back; three.js rebuilds its state when it does
      event.preventDefault()
      clearTimeout(restoreTimer)
      restoreTimer = setTimeout(() => latest.current.onContextLost(), contextRestoreWaitMs)
    }
    const onRestored = () => clearTimeout(restoreTimer)
    canvas.addEventListener('webglcontextlost', onLost)
    canvas.addEventListener('webglcontextrestored', onRestored)
    return () => {
      clearTimeout(restoreTimer)
      canvas.removeEventListener('webglcontextlost', onLost)
      canvas.removeEventListener('webglcontextrestored', onRestored)
    }
  }, [stage])
}
