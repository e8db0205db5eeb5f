import { Group, type Vector3 } from 'three'
import { sbmDecodeApi } from '../../workers/sbm/sbm-decode-api'
import type { ScenePoi } from '../api/poi-commands'
import { PoiModels } from '../building/pois/poi-models'
import { loadPackageFile, type ViewerPackageData } from './package-data'

type ViewerPoi = ViewerPackageData['pois'][number]

/**
 * The POIs of 3D templates as their models, drawn by the online building scene's PoiModels (all
 * POIs of a template in one draw per part of its model). Each model is read from the package's
 * script and decoded on the main thread (workers cannot start under `file://`). Resolves once
 * every model has loaded with its textures or failed; the POIs of a template whose model failed
 * are not in `drawnIds` and keep their icon (the model's preview), as online.
 */
export async function addPoiModels(
  data: ViewerPackageData,
  positionOf: (poi: ViewerPoi) => Vector3,
): Promise<{ group: Group; drawnIds: Set<string> }> {
  const group = new Group()
  group.name = 'poi-models'
  const modelOf = new Map(
    data.templates.flatMap((template) =>
      template.package.model === null ? [] : [[template.id, template.package.model] as const],
    ),
  )
  const drawnIds = new Set<string>()
  if (!data.pois.some((poi) => modelOf.has(poi.category_id))) return { group, drawnIds }
  const models = new PoiModels(
    group,
    async (path) => {
      const bytes = await loadPackageFile(data, path)
      const outcome = await sbmDecodeApi.decode(bytes.buffer as ArrayBuffer, { forPicking: false })
      if (!outcome.ok) throw new Error(outcome.error.message)
      return outcome.value
    },
    () => {},
  )
  models.setModels(modelOf)
  await models.settled()
  const byTemplate = new Map<string, ScenePoi[]>()
  for (const poi of data.pois) {
    if (!models.isReady(poi.category_id)) continue
    const shown = byTemplate.get(poi.category_id) ?? []
    shown.push({
      id: poi.id,
      templateId: poi.category_id,
      label: '',
      position: positionOf(poi).toArray(),
      heading: poi.heading ?? 0,
      pitch: poi.pitch ?? 0,
      roll: poi.roll ?? 0,
      groupId: poi.category_id,
    })
    byTemplate.set(poi.category_id, shown)
    drawnIds.add(poi.id)
  }
  models.update(byTemplate, new Set(), null)
  return { group, drawnIds }
}
