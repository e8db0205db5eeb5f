import { useLingui } from '@lingui/react/macro'
import { type RefObject, useEffect } from 'react'
import { type EngineHandle, sceneStore } from '../../../engine-bridge'
import { type PoiStore, poiStore } from '../../../state/pois'
import { toast } from '../../../ui'
import {
  floorForPoint,
  groupDragTargets,
  headingFacing,
  type PoiDragStart,
  poiEditing,
} from './poi-editing'
import { templateNameText } from '../../../i18n/library-names'

/** A press that moves further than this is a drag (orbit, or the move tool), not a click. */
const dragMinTravelPx = 4

/**
 * The canvas side of the POI module: a click places a POI of the chosen template on the model
 * (optimistic: it is drawn at once) or selects the POI under the pointer; hovering highlights
 * the POI under the pointer; with the move tool, dragging moves the selected POIs along the
 * model's surface as a block (the POI grabbed, or the first selected, follows the pointer; the
 * others keep their offsets from it; the orbit is held while the tool is active) and releasing
 * saves the move in one list call.
 * Returns the click handler the canvas calls instead of its own surface pick.
 */
export function usePoiStage(
  engine: EngineHandle,
  stageRef: RefObject<HTMLElement | null>,
  isActive: boolean,
  store: PoiStore = poiStore,
): (x: number, y: number) => void {
  const { t } = useLingui()

  useEffect(() => {
    const stage = stageRef.current
    if (!stage || !isActive) return undefined
    let isHoverInFlight = false
    let pendingHover: { x: number; y: number } | null = null
    let drag: { pointerId: number; x: number; y: number; moved: boolean; busy: boolean } | null =
      null
    let dragTarget: { x: number; y: number } | null = null
    const local = (event: PointerEvent) => {
      const canvas = stage.querySelector('canvas')
      const bounds = (canvas ?? stage).getBoundingClientRect()
      return { x: event.clientX - bounds.left, y: event.clientY - bounds.top }
    }
    /**
     * Whether a press or hover is on the scene itself. The control bar lives on the stage too:
     * a press on its buttons or sliders is theirs (held here, it never reached the button, and
     * the pointer capture sent its click to the stage: after a move, rotate did not open).
     */
    const isOnScene = (event: PointerEvent) =>
      event.target instanceof HTMLCanvasElement && stage.contains(event.target)

    const hover = async (point: { x: number; y: number }) => {
      if (isHoverInFlight) {
        pendingHover = point
        return
      }
      isHoverInFlight = true
      try {
        await engine.run('building.hoverPoiAtScreenPoint', point)
      } catch {
        // No open building yet: nothing to hover.
      }
      isHoverInFlight = false
      const next = pendingHover
      pendingHover = null
      if (next) void hover(next)
    }

    /** Moves the dragged POIs to the surface under the pointer (one request at a time). */
    const follow = async () => {
      if (!drag || drag.busy || !dragTarget) return
      drag.busy = true
      const target = dragTarget
      dragTarget = null
      const surface = await engine
        .run('building.surfacePointAtScreenPoint', target)
        .catch(() => null)
      if (drag) drag.busy = false
      if (surface && drag) {
        const anchorId = await grabbed
        movedTo = groupDragTargets(starts, anchorId, surface)
        for (const [id, target] of movedTo) {
          store.preview(id, { position: target.position, floorId: target.floorId ?? undefined })
        }
      }
      if (dragTarget) void follow()
    }
    let movedTo: Map<string, PoiDragStart> | null = null
    /** Where the selected POIs stood at the press. */
    let starts = new Map<string, PoiDragStart>()
    /** The POI the press grabbed (the first selected one when it was beside them). */
    let grabbed: Promise<string> = Promise.resolve('')

    const isMoving = () => poiEditing.activeTool === 'move' && store.state.selectedIds.length > 0

    const onPointerDown = (event: PointerEvent) => {
      if (event.button !== 0 || !isMoving() || !isOnScene(event)) return
      // Held here, so the orbit controls never see the press while the move tool is active.
      event.stopPropagation()
      stage.setPointerCapture?.(event.pointerId)
      const point = local(event)
      drag = { pointerId: event.pointerId, ...point, moved: false, busy: false }
      movedTo = null
      const selectedIds = [...store.state.selectedIds]
      starts = new Map(
        selectedIds.flatMap((id) => {
          const entry = store.get(id)
          return entry ? [[id, { position: entry.position, floorId: entry.floorId }] as const] : []
        }),
      )
      grabbed = engine
        .run('building.pickPoiAtScreenPoint', point)
        .catch(() => null)
        .then((hit) => (hit && starts.has(hit.poiId) ? hit.poiId : (selectedIds[0] ?? '')))
    }
    const onPointerMove = (event: PointerEvent) => {
      const point = local(event)
      if (drag && event.pointerId === drag.pointerId) {
        event.stopPropagation()
        if (Math.hypot(point.x - drag.x, point.y - drag.y) > dragMinTravelPx) drag.moved = true
        if (drag.moved) {
          dragTarget = point
          void follow()
        }
        return
      }
      if (event.buttons === 0 && isOnScene(event)) void hover(point)
    }
    const onPointerUp = (event: PointerEvent) => {
      if (!drag || event.pointerId !== drag.pointerId) return
      event.stopPropagation()
      stage.releasePointerCapture?.(event.pointerId)
      const wasMoved = drag.moved
      drag = null
      dragTarget = null
      const destination = movedTo
      movedTo = null
      if (!wasMoved || !destination) return
      const list = [...destination].map(([id, target]) => ({
        id,
        changes: {
          position: target.position,
          ...(target.floorId ? { floorId: target.floorId } : {}),
        },
      }))
      if (list.length > 0) void store.updateMany(list)
    }
    stage.addEventListener('pointerdown', onPointerDown, { capture: true })
    stage.addEventListener('pointermove', onPointerMove, { capture: true })
    stage.addEventListener('pointerup', onPointerUp, { capture: true })
    return () => {
      stage.removeEventListener('pointerdown', onPointerDown, { capture: true })
      stage.removeEventListener('pointermove', onPointerMove, { capture: true })
      stage.removeEventListener('pointerup', onPointerUp, { capture: true })
      void engine.run('building.hoverPoiAtScreenPoint', { x: -1, y: -1 }).catch(() => undefined)
    }
  }, [engine, stageRef, store, isActive])

  return (x, y) => {
    const template = poiEditing.placingTemplate
    if (template) {
      void (async () => {
        const surface = await engine.run('building.surfacePointAtScreenPoint', { x, y })
        if (!surface) {
          toast.warning(t`Nothing was hit there. Click on the building.`)
          return
        }
        const building = sceneStore.building
        const floorId = floorForPoint(
          surface.floorId,
          building.selectedFloorId,
          building.floors,
          surface.position[1],
        )
        const created = await store.create({
          name: `${templateNameText(template)} ${store.state.count + 1}`,
          template,
          position: surface.position,
          heading: headingFacing(surface.normal),
          floorId,
        })
        if (created) store.select([created.id])
      })().catch(() => undefined)
      return
    }
    void (async () => {
      const hit = await engine.run('building.pickPoiAtScreenPoint', { x, y })
      if (hit) {
        store.select([hit.poiId])
        return
      }
      store.select([])
      // No POI there: the usual surface pick (the info box shows what was hit).
      await engine.run('building.pickAtScreenPoint', { x, y })
    })().catch(() => undefined)
  }
}
