import * as poisApi from '../../api/pois'
import type { CategoryNode, Template, TemplatePage, TemplateProperty } from '../../api/templates'
import * as templatesApi from '../../api/templates'
import type { PoiTemplateInfo } from '../../state/pois'

/**
 * The calls the shared POI screens make besides the store's. Screens take them as a prop
 * defaulting to the server's, so component tests answer like the server without a network.
 */
export interface PoiScreenServices {
  /** A page of the templates the user may place (the POI form's template choice). */
  listTemplates: (query: {
    pageNo: number
    pageSize: number
    keyword?: string
  }) => Promise<TemplatePage>
  /** The category trees (POI classify names its groups by them). */
  findCategoryTree: () => Promise<CategoryNode[]>
  /** A template's static attributes (a new POI's custom properties). */
  listAttributes: (templateId: string) => Promise<TemplateProperty[]>
  /** One POI with its custom properties (the modify form, bulk edit of properties). */
  findPoiDetail: (id: string) => Promise<poisApi.PoiDetail>
  /** Batch add from a filled XLSX or a CSV (dry run first). */
  batchCreatePois: typeof poisApi.batchCreatePois
  /** The POIs linked to a model (the model-POI page). */
  selectPoisByModel: (modelId: string) => Promise<poisApi.ModelPoiItem[]>
}

/** The server's calls. */
export const serverPoiScreenServices: PoiScreenServices = {
  listTemplates: templatesApi.listTemplates,
  findCategoryTree: templatesApi.findCategoryTree,
  listAttributes: templatesApi.listAttributes,
  findPoiDetail: (id) => poisApi.findPoiDetail(id),
  batchCreatePois: poisApi.batchCreatePois,
  selectPoisByModel: poisApi.selectPoisByModel,
}

/**
 * A template as the POI store draws it, from the template record (the server fills the same
 * fields from the same columns: the 3D model is the template's `glbf_name` in `file_path`).
 */
export function templateInfoOf(template: Template): PoiTemplateInfo {
  return {
    id: template.id,
    name: template.name,
    ...(template.name_key ? { name_key: template.name_key } : {}),
    type: template.type,
    category_node_id: template.category_id,
    poicategory_code: template.poicategory_code,
    iconpath: template.iconpath || template.icon_path,
    jpg_name: template.jpg_name,
    sbm_name: template.glbf_name,
    filepath: template.file_path,
  }
}
