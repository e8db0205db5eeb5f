import { useLingui } from '@lingui/react/macro'
import { type PointerEvent, useEffect, useRef } from 'react'
import type { BuildingPick } from '../../../engine/api'
import { useEngine } from '../../engine-bridge'

/** A press that moves further than this is an orbit or pan drag, not a click. */
const clickMaxTravelPx = 4

/** Props of {@link BuildingCanvas}. */
export interface BuildingCanvasProps {
  /** Called with what lies under a click (null: nothing), after the engine has picked it. */
  onPick: (pick: BuildingPick | null) => void
  /** Shown as the canvas's accessible name. */
  label?: string
  /**
   * When set, a click goes here (CSS pixels from the canvas's top-left) instead of the surface
   * pick, e.g. the POI module placing or selecting POIs.
   */
  onClickPoint?: (x: number, y: number) => void
}

/**
 * The one canvas of a building scene. It is handed to the engine once on mount and taken back
 * on unmount, so the scene survives everything that re-renders around it (tabs, panels). A
 * click that did not drag picks the surface under the pointer through the engine.
 */
export function BuildingCanvas({ onPick, label, onClickPoint }: BuildingCanvasProps) {
  const { t } = useLingui()
  const engine = useEngine()
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const pressRef = useRef<{ x: number; y: number; travelPx: number } | null>(null)
  const onPickRef = useRef(onPick)
  onPickRef.current = onPick
  const onClickPointRef = useRef(onClickPoint)
  onClickPointRef.current = onClickPoint

  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas) return
    void engine.run('view.attachCanvas', { canvas }).catch(() => undefined)
    return () => {
      void engine.run('view.attachCanvas', { canvas: null }).catch(() => undefined)
    }
  }, [engine])

  function handlePointerDown(event: PointerEvent<HTMLCanvasElement>) {
    if (event.button !== 0) return
    pressRef.current = { x: event.clientX, y: event.clientY, travelPx: 0 }
  }

  function handlePointerMove(event: PointerEvent<HTMLCanvasElement>) {
    const press = pressRef.current
    if (!press) return
    press.travelPx = Math.max(
      press.travelPx,
      Math.hypot(event.clientX - press.x, event.clientY - press.y),
    )
  }

  function handlePointerUp(event: PointerEvent<HTMLCanvasElement>) {
    const press = pressRef.current
    pressRef.current = null
    if (!press || press.travelPx > clickMaxTravelPx || event.button !== 0) return
    const bounds = event.currentTarget.getBoundingClientRect()
    const x = event.clientX - bounds.left
    const y = event.clientY - bounds.top
    if (onClickPointRef.current) {
      onClickPointRef.current(x, y)
      return
    }
    engine.run('building.pickAtScreenPoint', { x, y }).then(
      (pick) => onPickRef.current(pick),
      // the failure is already in snapshot.lastError, which the status bar shows
      () => undefined,
    )
  }

  return (
    <canvas
      ref={canvasRef}
      className="ts-bim4-canvas"
      data-testid="building-canvas"
      role="img"
      aria-label={label ?? t`Building scene`}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={handlePointerUp}
      onPointerCancel={() => {
        pressRef.current = null
      }}
    />
  )
}
