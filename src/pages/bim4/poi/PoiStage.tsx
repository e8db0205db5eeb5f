import type { BuildingPick } from '../../../../engine/api'
import { useRef } from 'react'
import { useSnapshot } from 'valtio'
import type { EngineHandle } from '../../../engine-bridge'
import { type PoiStore, poiStore } from '../../../state/pois'
import { PoiControl } from '../../pois/PoiControl'
import { BuildingCanvas } from '../BuildingCanvas'
import { poiEditing } from './poi-editing'
import { usePoiStage } from './use-poi-stage'

/** Props of {@link PoiStage}. */
export interface PoiStageProps {
  engine: EngineHandle
  onPick: (pick: BuildingPick | null) => void
  /** The POI module is open: clicks place or select POIs and the control bar may show. */
  isActive: boolean
  store?: PoiStore
  /** Where a click goes while the POI module is not active (e.g. placing a library model). */
  onClickPoint?: ((x: number, y: number) => void) | undefined
}

/**
 * The building canvas (one for every module, so the scene is never re-attached). While the POI
 * module is open, clicks place or select POIs, hovering highlights, the move tool drags, and the
 * POI control bar shows over the canvas while POIs are selected.
 */
export function PoiStage({
  engine,
  onPick,
  isActive,
  store = poiStore,
  onClickPoint,
}: PoiStageProps) {
  const stageRef = useRef<HTMLDivElement>(null)
  const handleClick = usePoiStage(engine, stageRef, isActive, store)
  const pois = useSnapshot(store.state)
  const editing = useSnapshot(poiEditing)
  return (
    <div ref={stageRef} className="ts-bim4-poi-stage">
      <BuildingCanvas onPick={onPick} onClickPoint={isActive ? handleClick : onClickPoint} />
      {isActive && pois.selectedIds.length > 0 && !editing.placingTemplate && (
        <div className="ts-bim4-poi-stage__control">
          <PoiControl
            store={store}
            activeTool={editing.activeTool}
            onActiveToolChange={(tool) => {
              poiEditing.activeTool = tool
            }}
            onClose={() => {
              poiEditing.activeTool = null
              store.select([])
            }}
          />
        </div>
      )}
    </div>
  )
}
