import type {
  BuildingFloor,
  BuildingModel,
  BuildingModelRole,
  ConversionDatum,
  FloorUploadDatum,
  ModelCountDatum,
  ModelInfoDatum,
  StructureUploadDatum,
} from '../../contract/building'
import { api } from './index'
import { buildingRoutes } from '../../contract/building'

/**
 * Typed calls of the building-model area (contract/building.ts). Uploads are multipart
 * (FormData); the rest are form posts. Each resolves to the answer's datum and rejects with
 * an ApiError carrying the server's message (e.g. 'Failed to load a model, not a valid SBM file!').
 */

export type {
  BuildingFloor,
  BuildingModel,
  BuildingModelRole,
  ConversionDatum,
  FloorUploadDatum,
  ModelCountDatum,
  ModelInfoDatum,
  ModelPlacement,
  StructureManifest,
  StructureUploadDatum,
} from '../../contract/building'

/** Where a file comes from: picked files, or the id of a finished resumable upload. */
export type UploadSource = { files: readonly File[] } | { uploadId: string }

function formWith(
  fields: Record<string, string | undefined>,
  source: UploadSource,
  fileField: string,
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(name, value)
  }
  if ('uploadId' in source) form.append('upload_id', source.uploadId)
  // text fields first: the server reads them before it stores any file
  else for (const file of source.files) form.append(fileField, file, file.name)
  return form
}

/** Floor upload `POST /web/upload/uploadZip`: many `.sbm` files or one `.zip` of SBMs. */
export async function uploadFloorModels(
  projectId: string,
  source: UploadSource,
  signal?: AbortSignal,
): Promise<FloorUploadDatum> {
  const form = formWith({ project_id: projectId }, source, 'file')
  const { datum } = await api.upload(buildingRoutes.uploadZip, form, signalOf(signal))
  return datum
}

/** Shell upload `POST /web/upload/configModelFileStructureReturnUrl`: one structure `.json`. */
export async function uploadStructureManifest(
  projectId: string,
  source: UploadSource,
  signal?: AbortSignal,
): Promise<StructureUploadDatum> {
  const form = formWith({ project_id: projectId }, source, 'file')
  const { datum } = await api.upload(
    buildingRoutes.configModelFileStructureReturnUrl,
    form,
    signalOf(signal),
  )
  return datum
}

/** `POST /web/upload/uploadandupdatemodel`: replaces one model's SBM file. */
export async function replaceModelFile(
  modelId: string,
  source: UploadSource,
  signal?: AbortSignal,
): Promise<BuildingModel> {
  const form = formWith({ id: modelId }, source, 'file')
  const { datum } = await api.upload(buildingRoutes.uploadandupdatemodel, form, signalOf(signal))
  return datum
}

/** `POST /web/BIMupload/updateBimModel`: rename, move to a floor (null: none), change role. */
export async function updateBimModel(change: {
  id: string
  name?: string
  floor_id?: string | null
  role?: BuildingModelRole
}): Promise<BuildingModel> {
  const body = { ...change, ...(change.floor_id === null ? { floor_id: '' } : {}) }
  const { datum } = await api.call(buildingRoutes.updateBimModel, body)
  return datum
}

/** `POST /web/BIMupload/deleteBimModel`; refused (payment required) once the project is paid. */
export async function deleteBimModel(modelId: string): Promise<void> {
  await api.call(buildingRoutes.deleteBimModel, { id: modelId })
}

/** `POST /web/BIMupload/updateFloor`: a floor's new elevation (metres) or name. */
export async function updateFloor(input: {
  id: string
  elevation?: number
  name?: string
}): Promise<BuildingFloor> {
  const { datum } = await api.call(buildingRoutes.updateFloor, input)
  return datum
}

/** `POST /web/model/findModelInfo`: the structure and models the engine loads. */
export async function findModelInfo(projectId: string): Promise<ModelInfoDatum> {
  const { datum } = await api.call(buildingRoutes.findModelInfo, {
    project_id: projectId,
  })
  return datum
}

/** `POST /web/model/createModelByCategory`: adds a converted library model to a project. */
export async function createModelByCategory(input: {
  project_id: string
  sbm_uuid: string
  name?: string
  role?: BuildingModelRole
  floor_id?: string
}): Promise<BuildingModel> {
  const { datum } = await api.call(buildingRoutes.createModelByCategory, input)
  return datum
}

/** `POST /web/findmodelnum`: how many models a project has, in total and per role. */
export async function findModelCount(projectId: string): Promise<ModelCountDatum> {
  const { datum } = await api.call(buildingRoutes.findmodelnum, { project_id: projectId })
  return datum
}

/** `POST /web/project/updatemodelinfo`: saves a model's placement and visibility. */
export async function updateModelInfo(change: {
  id: string
  position?: [number, number, number]
  rotationDegrees?: [number, number, number]
  scale?: [number, number, number]
  is_visible?: boolean
}): Promise<BuildingModel> {
  const { datum } = await api.call(buildingRoutes.updatemodelinfo, change, {
    encoding: 'json',
  })
  return datum
}

/**
 * `POST /web/upload/uploadGltfForSbm`: converts one `.glb`, or one `.gltf` with its `.bin` and
 * images, to SBM; with `projectId` the result also joins that project's model library.
 */
export async function convertGltfToSbm(
  source: UploadSource,
  options: { projectId?: string; categoryZipUuid?: string; signal?: AbortSignal } = {},
): Promise<ConversionDatum> {
  const form = formWith(
    {
      option_type: 'add',
      category_zip_uuid: options.categoryZipUuid,
      project_id: options.projectId,
    },
    source,
    'glbf_arr',
  )
  const { datum } = await api.upload(
    buildingRoutes.uploadGltfForSbm,
    form,
    signalOf(options.signal),
  )
  return datum
}

/** `POST /web/upload/convertSbm`: converts one `.dae` or `.fbx` to SBM. */
export async function convertDaeOrFbxToSbm(
  source: UploadSource,
  options: { projectId?: string; signal?: AbortSignal } = {},
): Promise<ConversionDatum> {
  const form = formWith({ project_id: options.projectId }, source, 'file')
  const { datum } = await api.upload(buildingRoutes.convertSbm, form, signalOf(options.signal))
  return datum
}

/** The address of a converted SBM (`rootPath` + `sbmName`). */
export function convertedModelPath(datum: Pick<ConversionDatum, 'rootPath' | 'sbmName'>): string {
  const root = datum.rootPath.endsWith('/') ? datum.rootPath : `${datum.rootPath}/`
  return `${root}${datum.sbmName}`
}

function signalOf(signal: AbortSignal | undefined) {
  return signal === undefined ? undefined : { signal }
}
