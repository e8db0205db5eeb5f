import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { AppRouteId } from '../../app/route-table'

/**
 * What each page that another part of the product fills will hold, shown until it arrives
 * (the route, its title and its frame already work, so links and the guard can be used now).
 */
export const plannedPageDescriptions: Partial<Record<AppRouteId, MessageDescriptor>> = {
  outPreview: msg`The public preview of a shared project will open here, without signing in.`,
  projectList: msg`Your city and space projects will be listed here, each kind with its total count and a Create button. Each project can be entered, viewed, edited and deleted.`,
  projectCase: msg`Official project cases will be shown here as a gallery.`,
  templateList: msg`POI templates will be listed here with their category, encoding, creation time and the projects that use them.`,
  modelConfigCases: msg`A tiled list of model configuration cases will be shown here.`,
  modelConfigMerge: msg`Building shells, floor models, their maps and a preview image will be merged into one building structure here.`,
  modelConfigAdd: msg`Floors and models will be added to an existing building structure here.`,
  modelConfigConversion: msg`A DAE or FBX model will be converted to the SBM format here.`,
  bim4Poi: msg`Points of interest of the building project will be placed and edited here, floor by floor.`,
  bim4Download: msg`The offline package of a paid project will be prepared and downloaded here.`,
  bim4StyleOtherset: msg`The sky, ground, weather and fog of the building scene will be set here.`,
  bim4StyleLightset: msg`The ambient, directional and hemisphere lights of the building scene will be set here.`,
  bim4VisitLink: msg`The building will be browsed here through its linked points of interest.`,
  bim4VisitPreview: msg`The building scene will be previewed here as visitors see it.`,
  bim4VisitMoreCase: msg`More example cases will be shown here.`,
  bim4VisitExpand: msg`Extra tools will be offered here: alarm simulation, walking preview, floor selection, shortest path and screen capture.`,
  cityMap: msg`The city map will open here with area division, oblique photography and basemap settings.`,
  cityModel: msg`The city's model library and single-building models will be managed here.`,
  cityModelPoi: msg`Points of interest attached to models will be managed here.`,
  cityPoi: msg`Points of interest of the city project will be placed and managed here.`,
  cityPath: msg`Paths and navigation routes of the city project will be planned here.`,
  cityLocation: msg`GPS positioning, anchor points and electronic fences will be set here.`,
  cityStyle: msg`Basemap, model and display settings of the city project will be set here.`,
  cityTemplate: msg`The POI templates this city project uses will be chosen here.`,
  cityVisit: msg`View tours of the city project will be set up and previewed here.`,
}
