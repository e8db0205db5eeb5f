import { i18n } from '@lingui/core'
import type { GmlPath } from '../../../../contract/gml'
import type { GmlPlacement } from '../../../../engine/api'
import { findGmlPath } from '../../../api/gml'
import type { EngineHandle } from '../../../engine-bridge'
import { toast } from '../../../ui'
import { buildingSession } from '../building-session'
import { gmlMessages } from './gml-messages'

/** The server's placement (snake case, SPEC field style) as the engine's command takes it. */
export function enginePlacementOf(file: Pick<GmlPath, 'placement'>): GmlPlacement {
  const { offset, rotation_deg: rotationDeg, scale } = file.placement
  return { offset: [offset[0], offset[1], offset[2]], rotationDeg, scale }
}

/** Whether the saved placement is the one every new file starts with (never placed). */
export function isDefaultPlacement(file: Pick<GmlPath, 'placement'>): boolean {
  const { offset, rotation_deg: rotationDeg, scale } = file.placement
  return offset.every((value) => value === 0) && rotationDeg === 0 && scale === 1
}

/**
 * Asks the server for the project's GML path and, when there is one, loads it into the engine
 * with its saved placement and display mode. Tells the user 'Failed to load GML file.' when
 * the engine cannot load it; a project without a file is not an error here (the GML panel says
 * 'There is no GML file.'). `isCurrent` stops a superseded run from touching the store.
 */
export async function loadProjectGml(
  engine: EngineHandle,
  projectId: string,
  { isCurrent = () => true }: { isCurrent?: () => boolean } = {},
): Promise<void> {
  buildingSession.gmlStatus = 'loading'
  let file: GmlPath | null
  try {
    file = await findGmlPath(projectId)
  } catch {
    if (isCurrent()) buildingSession.gmlStatus = 'failed'
    return
  }
  if (!isCurrent()) return
  buildingSession.gmlFile = file
  if (!file) {
    buildingSession.gmlStatus = 'none'
    return
  }
  try {
    // A placement nobody saved is left to the engine, which fits the network onto the building.
    const placement = isDefaultPlacement(file) ? undefined : enginePlacementOf(file)
    await engine.run('gml.load', { url: file.url, ...(placement ? { placement } : {}) })
    await engine.run('gml.setDisplayMode', { mode: file.display_mode })
    if (isCurrent()) buildingSession.gmlStatus = 'loaded'
  } catch {
    if (!isCurrent()) return
    buildingSession.gmlStatus = 'failed'
    toast.error(i18n._(gmlMessages.loadFailed))
  }
}
