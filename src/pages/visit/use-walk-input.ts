import { useEffect } from 'react'
import type { EngineHandle } from '../../engine-bridge'
import { isWalkKey, lookDegreesPerPixel, walkMovementOf } from './walk-keys'

/** Whether a key press is typing into a field (a walk key there types, it does not walk). */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
}

/**
 * While the engine walks: held W A S D (or arrow) keys move the walker, a drag on the scene's
 * canvas turns the view, and Esc leaves the walk. Listens on the window, since the keyboard
 * focus may be anywhere on the page; the walk also ends when the tool unmounts.
 */
export function useWalkInput(engine: EngineHandle, isWalking: boolean): void {
  useEffect(() => {
    if (!isWalking) return
    const held = new Set<string>()
    let sent = { forward: 0, right: 0 }
    const send = () => {
      const next = walkMovementOf(held)
      if (next.forward === sent.forward && next.right === sent.right) return
      sent = next
      void engine.run('walk.setMovement', next).catch(() => undefined)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code === 'Escape') {
        void engine.run('walk.stop').catch(() => undefined)
        return
      }
      if (!isWalkKey(event.code) || isTyping(event.target)) return
      if (event.ctrlKey || event.metaKey || event.altKey) return
      // the arrows would scroll the side panel too
      event.preventDefault()
      held.add(event.code)
      send()
    }
    const onKeyUp = (event: KeyboardEvent) => {
      if (held.delete(event.code)) send()
    }
    // a key released while the window had no focus never sends its keyup
    const onBlur = () => {
      held.clear()
      send()
    }
    let drag: { x: number; y: number } | null = null
    const onPointerDown = (event: PointerEvent) => {
      if (event.button === 0 && event.target instanceof HTMLCanvasElement) {
        drag = { x: event.clientX, y: event.clientY }
      }
    }
    const onPointerMove = (event: PointerEvent) => {
      if (!drag) return
      const dx = event.clientX - drag.x
      const dy = event.clientY - drag.y
      drag = { x: event.clientX, y: event.clientY }
      if (dx === 0 && dy === 0) return
      // drag right turns right (yaw −), drag up looks up
      const look = {
        yawDegrees: -dx * lookDegreesPerPixel,
        pitchDegrees: -dy * lookDegreesPerPixel,
      }
      void engine.run('walk.look', look).catch(() => undefined)
    }
    const onPointerUp = () => {
      drag = null
    }
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener('keyup', onKeyUp)
    window.addEventListener('blur', onBlur)
    window.addEventListener('pointerdown', onPointerDown)
    window.addEventListener('pointermove', onPointerMove)
    window.addEventListener('pointerup', onPointerUp)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener('keyup', onKeyUp)
      window.removeEventListener('blur', onBlur)
      window.removeEventListener('pointerdown', onPointerDown)
      window.removeEventListener('pointermove', onPointerMove)
      window.removeEventListener('pointerup', onPointerUp)
      // leaving the tool (or the walk ending) leaves the walk: no keys would reach it any more
      void engine.run('walk.stop').catch(() => undefined)
    }
  }, [engine, isWalking])
}
