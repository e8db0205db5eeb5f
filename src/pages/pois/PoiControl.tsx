import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { Vector3Tuple } from '../../../engine/api'
import { type PoiFrame, type PoiStore, poiStore } from '../../state/pois'
import { confirmDelete } from '../../ui'
import { useControllableState } from '../../ui/use-controllable-state'
import { PoiControlBar } from './PoiControlBar'
import { metersFromAltitudeMillimeters, type PoiModeTool } from './poi-control'

/** Props of {@link PoiControl}. */
export interface PoiControlProps {
  store?: PoiStore
  /** The editor owns the tool when it must know "move" (it drags along the picked surface). */
  activeTool?: PoiModeTool | null
  onActiveToolChange?: (tool: PoiModeTool | null) => void
  onClose: () => void
}

/** The position raised by `meters` (the city's height is z; the building's up axis is y). */
export function raisedPosition(
  position: Vector3Tuple,
  meters: number,
  frame: PoiFrame,
): Vector3Tuple {
  const [x, y, z] = position
  return frame === 'building' ? [x, y + meters, z] : [x, y, z + meters]
}

/**
 * The POI control bar wired to the POI store, acting on the selected POIs: rotate sets their
 * heading (drawn while dragging, saved on release or key press), altitude raises or lowers them
 * by the slider's millimetres from where they were when the tool opened, undo takes back the
 * store's last edit, delete asks first. Move is the editor's (drag on the scene's surface).
 */
export function PoiControl({
  store = poiStore,
  activeTool: activeToolProp,
  onActiveToolChange,
  onClose,
}: PoiControlProps) {
  const { t } = useLingui()
  const snapshot = useSnapshot(store.state)
  const [activeTool, setActiveTool] = useControllableState<PoiModeTool | null>({
    value: activeToolProp,
    defaultValue: null,
    onChange: onActiveToolChange,
  })
  const selectedIds = snapshot.selectedIds
  const first = selectedIds[0] ? store.get(selectedIds[0]) : undefined
  const [headingDraft, setHeadingDraft] = useState<number | null>(null)
  const [altitudeMillimeters, setAltitudeMillimeters] = useState(0)
  /** Where the selected POIs were when the altitude tool opened. */
  const altitudeBase = useRef<Map<string, Vector3Tuple> | null>(null)
  const frame = snapshot.frame ?? 'city'

  // A new selection or another tool starts the sliders afresh.
  const selectionKey = selectedIds.join(',')
  useEffect(() => {
    void selectionKey
    void activeTool
    setHeadingDraft(null)
    setAltitudeMillimeters(0)
    altitudeBase.current = null
  }, [selectionKey, activeTool])

  const baseOfSelection = (): Map<string, Vector3Tuple> => {
    if (!altitudeBase.current) {
      altitudeBase.current = new Map()
      for (const id of selectedIds) {
        const entry = store.get(id)
        if (entry) altitudeBase.current.set(entry.id, entry.position)
      }
    }
    return altitudeBase.current
  }

  const raised = (millimeters: number) =>
    [...baseOfSelection()].map(([id, position]) => ({
      id,
      changes: {
        position: raisedPosition(position, metersFromAltitudeMillimeters(millimeters), frame),
      },
    }))

  return (
    <PoiControlBar
      activeTool={activeTool}
      onActiveToolChange={setActiveTool}
      isDisabled={!first}
      headingDegrees={headingDraft ?? first?.heading ?? 0}
      onHeadingChange={(degrees) => {
        setHeadingDraft(degrees)
        for (const id of selectedIds) store.preview(id, { heading: degrees })
      }}
      onHeadingCommit={(degrees) => {
        setHeadingDraft(degrees)
        const list = selectedIds
          .filter((id) => store.get(id)?.heading !== degrees)
          .map((id) => ({ id, changes: { heading: degrees } }))
        if (list.length > 0) void store.updateMany(list)
      }}
      altitudeMillimeters={altitudeMillimeters}
      onAltitudeChange={(millimeters) => {
        setAltitudeMillimeters(millimeters)
        for (const { id, changes } of raised(millimeters)) store.preview(id, changes)
      }}
      onAltitudeCommit={(millimeters) => {
        setAltitudeMillimeters(millimeters)
        const list = raised(millimeters).filter(({ id, changes }) => {
          const position = store.get(id)?.position
          return position?.some((value, axis) => value !== changes.position[axis])
        })
        if (list.length > 0) void store.updateMany(list)
      }}
      canUndo={snapshot.undoDepth > 0}
      onUndo={() => void store.undo()}
      onDelete={async () => {
        const ids = [...selectedIds]
        const itemName = ids.length === 1 ? first?.name : t`${ids.length} POIs`
        if (await confirmDelete({ itemName })) await store.remove(ids)
      }}
      onClose={() => {
        for (const id of selectedIds) store.cancelPreview(id)
        onClose()
      }}
    />
  )
}
