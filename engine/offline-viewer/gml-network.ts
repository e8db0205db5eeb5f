import type { Box3, Group } from 'three'
import { loadIndoorGml } from '../../workers/indoor-route/load-indoor-gml'
import type { GmlDisplayMode, GmlPlacement } from '../api/building-snapshot'
import { GmlLayer } from '../building/gml-layer'
import { fitPlacement } from '../building/gml-placement'
import { loadPackageFile, type ViewerPackageData } from './package-data'

/** The route colour GmlLayer wants; the viewer finds no routes, so it is never seen. */
const unusedRouteColor = { r: 229, g: 57, b: 53, a: 1 }

/**
 * The project's IndoorGML network in the offline viewer, drawn as the online building scene
 * draws it (GmlLayer: States as spheres, Transitions as lines, at the saved placement and
 * display mode; a network nobody placed sits on the models, as online). The file is parsed on
 * the main thread with the route worker's own parser: workers cannot start under `file://`.
 * Resolves to the drawing and its State count, or null when the package has no GML file.
 */
export async function loadGmlNetwork(
  data: ViewerPackageData,
  modelBounds: Box3,
): Promise<{ group: Group; states: number } | null> {
  if (!data.gml) return null
  const bytes = await loadPackageFile(data, data.gml.file)
  const { graph } = loadIndoorGml(bytes)
  const { offset, rotation_deg: rotationDeg, scale, display_mode: mode } = data.gml
  const saved: GmlPlacement = { offset, rotationDeg, scale }
  const isDefault = offset.every((value) => value === 0) && rotationDeg === 0 && scale === 1
  const layer = new GmlLayer(
    graph,
    isDefault ? fitPlacement(graph.positions, modelBounds) : saved,
    (mode === 0 || mode === 2 || mode === 3 ? mode : 1) as GmlDisplayMode,
    unusedRouteColor,
  )
  return { group: layer.group, states: graph.stateIds.length }
}
