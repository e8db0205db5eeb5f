import { type RefObject, useEffect } from 'react'
import type { EngineHandle } from '../../../engine-bridge'
import { type PoiStore, poiStore } from '../../../state/pois'
import { cityPoiUi } from './city-poi-actions'

/** A press that moves further than this is a drag of the POI, not a click on it. */
const dragMinTravelPx = 4

/** A POI being dragged: the press, and the surface point it was last previewed at. */
interface CityPoiDrag {
  /** Null until the engine has said the press is on the selected POI. */
  poiId: string | null
  pointerId: number
  from: { x: number; y: number }
  isMoved: boolean
  destination: readonly [number, number, number] | null
}

/**
 * The move tool of the city's POI control: press on the selected POI and drag it over the map
 * or the oblique photography; it follows the surface under the pointer
 * (`city.surfacePointAtScreenPoint`, previewed, not saved), releasing saves the move, Escape
 * cancels it and puts the POI back. While the POI is dragged the engine holds the map's pan
 * (`city.beginPoiDrag`), so the camera stays put. Listens on `stageRef`'s element; pixels are
 * taken relative to the map element inside it (`[data-testid="city-map"]`).
 */
export function useCityPoiDrag(
  engine: EngineHandle,
  stageRef: RefObject<HTMLElement | null>,
  isActive: boolean,
  store: PoiStore = poiStore,
): void {
  useEffect(() => {
    const stage = stageRef.current
    if (!stage || !isActive) return undefined
    const mapElement = () => stage.querySelector<HTMLElement>('[data-testid="city-map"]') ?? stage
    const local = (event: { clientX: number; clientY: number }) => {
      const bounds = mapElement().getBoundingClientRect()
      return { x: event.clientX - bounds.left, y: event.clientY - bounds.top }
    }
    let drag: CityPoiDrag | null = null
    let target: { x: number; y: number } | null = null
    let isFollowing = false

    /** Previews the POI on the surface under the pointer (one request at a time, latest wins). */
    const follow = async () => {
      if (isFollowing) return
      isFollowing = true
      while (drag?.poiId && target) {
        const point = target
        target = null
        const surface = await engine.run('city.surfacePointAtScreenPoint', point).catch(() => null)
        if (!drag?.poiId || !surface) continue
        drag.destination = surface.position
        store.preview(drag.poiId, { position: surface.position })
      }
      isFollowing = false
    }

    const finish = (isSaved: boolean) => {
      const ended = drag
      drag = null
      target = null
      window.removeEventListener('pointermove', onPointerMove, true)
      window.removeEventListener('pointerup', onPointerUp, true)
      window.removeEventListener('pointercancel', onPointerCancel, true)
      window.removeEventListener('keydown', onKeyDown, true)
      void engine.run('city.endPoiDrag').catch(() => undefined)
      if (!ended?.poiId || !ended.isMoved) return
      if (isSaved && ended.destination) {
        void store.update(ended.poiId, { position: ended.destination })
      } else {
        store.cancelPreview(ended.poiId)
      }
    }

    const onPointerMove = (event: PointerEvent) => {
      if (!drag?.poiId || event.pointerId !== drag.pointerId) return
      const point = local(event)
      if (
        !drag.isMoved &&
        Math.hypot(point.x - drag.from.x, point.y - drag.from.y) <= dragMinTravelPx
      )
        return
      drag.isMoved = true
      target = point
      void follow()
    }
    const onPointerUp = (event: PointerEvent) => {
      if (!drag || event.pointerId !== drag.pointerId) return
      finish(true)
    }
    const onPointerCancel = () => finish(false)
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !drag) return
      // The Escape belongs to the drag: it must not also close a dialog or leave the tab.
      event.preventDefault()
      event.stopPropagation()
      finish(false)
    }

    const onPointerDown = (event: PointerEvent) => {
      if (event.button !== 0 || drag) return
      if (cityPoiUi.activeTool !== 'move' || cityPoiUi.placingTemplate) return
      if (store.state.selectedIds.length === 0) return
      if (!(event.target instanceof Node) || !mapElement().contains(event.target)) return
      const point = local(event)
      const pressed: CityPoiDrag = {
        poiId: null,
        pointerId: event.pointerId,
        from: point,
        isMoved: false,
        destination: null,
      }
      drag = pressed
      window.addEventListener('pointermove', onPointerMove, true)
      window.addEventListener('pointerup', onPointerUp, true)
      window.addEventListener('pointercancel', onPointerCancel, true)
      window.addEventListener('keydown', onKeyDown, true)
      // The engine holds the map's pan at once (its handler runs before MapLibre's own
      // mousedown) when the press is on the selected POI; otherwise the press pans the map.
      void engine
        .run('city.beginPoiDrag', point)
        .catch(() => null)
        .then((hit) => {
          if (drag !== pressed) return
          if (hit) pressed.poiId = hit.poiId
          else finish(false)
        })
    }

    stage.addEventListener('pointerdown', onPointerDown, true)
    return () => {
      stage.removeEventListener('pointerdown', onPointerDown, true)
      if (drag) finish(false)
    }
  }, [engine, stageRef, isActive, store])
}
