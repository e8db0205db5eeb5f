import { Trans } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { useProjectPermissions } from '../../../components/project/project-permissions'
import { sceneStore } from '../../../engine-bridge'
import { EmptyState } from '../../../ui'
import { buildingSession } from '../building-session'
import { SimulateAlarmTool } from '../iot/SimulateAlarmTool'
import { WalkTool } from '../../visit/WalkTool'
import { FloorControls } from '../model/FloorControls'
import { ShortestPathTool } from './ShortestPathTool'

/**
 * Visit → function expansion: the visit tools that act on the building scene (SPEC §2 "Visit
 * tools"): the WASD walk; floor select, translucent control and shortest path, the same controls
 * the model and GML tabs use, so a visitor does not have to leave the visit module; and the
 * simulated alarm through the real alarm path.
 */
export function VisitToolsPanel() {
  const { building } = useSnapshot(sceneStore)
  const session = useSnapshot(buildingSession)
  const { canEdit } = useProjectPermissions(session.project)
  if (!building.isOpen) return <EmptyState title={<Trans>No building is open.</Trans>} />
  return (
    <div className="ts-bim4-visit">
      <WalkTool />
      <FloorControls />
      <ShortestPathTool />
      <SimulateAlarmTool canEdit={canEdit} />
    </div>
  )
}
