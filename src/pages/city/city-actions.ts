import { t } from '@lingui/core/macro'
import type { ObliquePhotograph, TilesetPlacement as ServerPlacement } from '../../api/city'
import { trackUploadRow } from '../../api/resumable-upload'
import type { EngineHandle } from '../../engine-bridge'
import { toast, uploadStore } from '../../ui'
import { type CityProjectState, errorMessage, tilesetSource } from './city-project-store'
import type { CityServices } from './city-services'

/**
 * What the city tabs do: each action asks the server first and, once it agreed, changes the
 * store and the open scene the same way, so the tree, the map and the server never disagree.
 */
export interface CityActionContext {
  store: CityProjectState
  services: CityServices
  engine: EngineHandle
}

/** File names a tileset upload accepts (decisions.md "Oblique photography"). */
export const tilesetFilePattern = /\.(zip|3tz)$/i

let uploadSequence = 0

function engineFailureIsHarmless(): void {
  // engine failures land in snapshot.lastError, which the status bar shows
}

/**
 * Flies to a tileset, or to one of its top-level parts (the index of the root's child, as the
 * server's `top_tiles` lists them). The engine owns where a tileset is (placement included)
 * and waits for its tileset.json when it is still loading.
 */
export async function flyToTileset(
  context: CityActionContext,
  tileset: ObliquePhotograph,
  partIndex?: number,
): Promise<void> {
  await context.engine
    .run('city.flyTo', {
      tilesetId: tileset.id,
      ...(partIndex === undefined ? {} : { partIndex }),
    })
    .catch(engineFailureIsHarmless)
}

/**
 * Moves the view so the tilesets are seen together (the visible ones, when any is); nothing
 * to do without tilesets.
 */
export async function frameTilesets(
  engine: EngineHandle,
  tilesets: readonly { id: string; isVisible: boolean }[],
  durationMs?: number,
): Promise<void> {
  const visible = tilesets.filter((tileset) => tileset.isVisible)
  const framed = visible.length > 0 ? visible : tilesets
  if (framed.length === 0) return
  await engine
    .run('city.flyTo', {
      tilesetIds: framed.map((tileset) => tileset.id),
      ...(durationMs === undefined ? {} : { durationMs }),
    })
    .catch(engineFailureIsHarmless)
}

/**
 * Uploads a 3D Tiles zip or `.3tz` (a new tileset, or new content for `updateId`) with real
 * byte progress in the upload window, then shows it on the map and flies there. A refusal
 * (e.g. an archive with several candidate root files) is kept in the store so the tab can show
 * the server's reason, and answers null.
 */
export async function uploadTilesetFile(
  context: CityActionContext,
  file: File,
  options: { updateId?: string } = {},
): Promise<ObliquePhotograph | null> {
  const { store, services, engine } = context
  const projectId = store.projectId
  if (!projectId) return null
  uploadSequence += 1
  const rowId = `tileset-${Date.now()}-${uploadSequence}`
  uploadStore.open()
  uploadStore.add({ id: rowId, name: file.name, sizeBytes: file.size })
  store.lastUploadRefusal = null
  const fileName = file.name
  if (!tilesetFilePattern.test(file.name)) {
    const message = () => t`Only a 3D Tiles package (.zip or .3tz) can be uploaded: ${fileName}`
    uploadStore.update(rowId, { status: 'failure', errorMessage: message })
    store.lastUploadRefusal = { fileName, message }
    toast.error(message())
    return null
  }
  const row = trackUploadRow(rowId)
  try {
    const { uploadId } = await services.uploadResumable(file, {
      purpose: 'tileset',
      onProgress: row.onProgress,
    })
    const tileset = await services.uploadTiltModel({
      projectId,
      uploadId,
      ...(options.updateId ? { id: options.updateId } : {}),
    })
    row.succeed()
    const index = store.tilesets.findIndex((existing) => existing.id === tileset.id)
    if (index === -1) store.tilesets.push(tileset)
    else store.tilesets[index] = tileset
    const source = tilesetSource(tileset)
    if (source) {
      if (index !== -1) await engine.run('city.removeTileset', { id: tileset.id }).catch(() => {})
      await engine.run('city.addTileset', source).catch(engineFailureIsHarmless)
      // not awaited: the flight takes seconds and the tab should be usable meanwhile
      void flyToTileset(context, tileset)
    }
    const name = tileset.name
    toast.success(
      options.updateId
        ? t`Oblique photography ${name} updated.`
        : t`Oblique photography ${name} uploaded.`,
    )
    return tileset
  } catch (error) {
    row.fail(error)
    // kept as "what the server said", made into words when drawn (a language switch follows)
    store.lastUploadRefusal = { fileName, message: () => errorMessage(error) }
    toast.error(errorMessage(error))
    return null
  }
}

/**
 * Adds a named tileset without content (`/obliquephotograph/add`), to be filled by an upload
 * with its id: the record shows in the tree at once, so a team can name and arrange the parts
 * of a city before the survey data arrives. Answers the record, or null when refused.
 */
export async function addEmptyTileset(
  context: CityActionContext,
  name: string,
): Promise<ObliquePhotograph | null> {
  const projectId = context.store.projectId
  if (!projectId) return null
  try {
    const tileset = await context.services.addObliquePhotograph({ project_id: projectId, name })
    context.store.tilesets.push(tileset)
    const added = tileset.name
    toast.success(t`Oblique photography ${added} added. Upload its content when it is ready.`)
    return tileset
  } catch (error) {
    toast.error(errorMessage(error))
    return null
  }
}

/** Renames a tileset. */
export async function renameTileset(
  context: CityActionContext,
  tileset: ObliquePhotograph,
  name: string,
): Promise<boolean> {
  try {
    replaceTileset(
      context.store,
      await context.services.updateObliquePhotograph({ id: tileset.id, name }),
    )
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/** Shows or hides a tileset, on the server (so it is remembered) and on the map. */
export async function setTilesetVisible(
  context: CityActionContext,
  tileset: ObliquePhotograph,
  isVisible: boolean,
): Promise<void> {
  try {
    replaceTileset(
      context.store,
      await context.services.updateObliquePhotograph({ id: tileset.id, is_visible: isVisible }),
    )
    await context.engine
      .run('city.setTilesetVisible', { id: tileset.id, isVisible })
      .catch(engineFailureIsHarmless)
  } catch (error) {
    toast.error(errorMessage(error))
  }
}

/** Places a tileset (null: back to its own georeference), saves it and moves it on the map. */
export async function placeTileset(
  context: CityActionContext,
  tileset: ObliquePhotograph,
  placement: ServerPlacement | null,
): Promise<boolean> {
  try {
    const updated = await context.services.updateObliquePhotograph({ id: tileset.id, placement })
    replaceTileset(context.store, updated)
    await context.engine
      .run('city.setTilesetPlacement', { id: tileset.id, placement: enginePlacement(placement) })
      .catch(engineFailureIsHarmless)
    // not awaited: the tileset restreams and the flight takes seconds; the form can close now
    void flyToTileset(context, updated)
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/**
 * Shows a placement on the map without saving it (the placement form's live preview), or
 * puts back the saved one. The map only: the server keeps what was saved.
 */
export async function previewTilesetPlacement(
  context: CityActionContext,
  tileset: ObliquePhotograph,
  placement: ServerPlacement | null,
): Promise<void> {
  await context.engine
    .run('city.setTilesetPlacement', { id: tileset.id, placement: enginePlacement(placement) })
    .catch(engineFailureIsHarmless)
}

function enginePlacement(placement: ServerPlacement | null) {
  return placement
    ? {
        lng: placement.lng,
        lat: placement.lat,
        heightOffset: placement.height_offset,
        heading: placement.heading,
      }
    : null
}

/** Deletes a tileset (the caller has confirmed) and removes it from the map. */
export async function deleteTileset(
  context: CityActionContext,
  tileset: ObliquePhotograph,
): Promise<boolean> {
  try {
    await context.services.deleteObliquePhotograph(tileset.id)
    context.store.tilesets = context.store.tilesets.filter((existing) => existing.id !== tileset.id)
    await context.engine
      .run('city.removeTileset', { id: tileset.id })
      .catch(engineFailureIsHarmless)
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

function replaceTileset(store: CityProjectState, tileset: ObliquePhotograph): void {
  const index = store.tilesets.findIndex((existing) => existing.id === tileset.id)
  if (index !== -1) store.tilesets[index] = tileset
}

/**
 * Selects (highlights) the building drawn at a point of the map; a click on the basemap clears
 * the selection. The engine picks and selects in one step; the panel reads the selection from
 * the scene snapshot. Answers whether a building was found.
 */
export async function pickBuildingAt(
  engine: EngineHandle,
  point: { x: number; y: number },
): Promise<boolean> {
  const pick = await engine.run('city.pickAndSelect', point).catch(() => null)
  return pick !== null && pick.featureId !== null
}

/** Saves the selected building as a named single-building (monomer) model. */
export async function saveMonomerModel(
  context: CityActionContext,
  selection: { tilesetId: string; featureId: number; properties: Record<string, unknown> },
  modelname: string,
): Promise<boolean> {
  const projectId = context.store.projectId
  if (!projectId) return false
  try {
    const model = await context.services.addGisModel({
      project_id: projectId,
      modelname,
      tileset_id: selection.tilesetId,
      feature_ids: [selection.featureId],
      properties: selection.properties,
    })
    context.store.gisModels.push(model)
    toast.success(t`Saved as monomer model ${modelname}.`)
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/** Renames a single-building model. */
export async function renameMonomerModel(
  context: CityActionContext,
  id: string,
  modelname: string,
): Promise<boolean> {
  try {
    const model = await context.services.updateGisModel({ id, modelname })
    const index = context.store.gisModels.findIndex((existing) => existing.id === id)
    if (index !== -1) context.store.gisModels[index] = model
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/** Deletes a single-building model (the caller has confirmed). */
export async function deleteMonomerModel(context: CityActionContext, id: string): Promise<boolean> {
  try {
    await context.services.deleteGisModel(id)
    context.store.gisModels = context.store.gisModels.filter((existing) => existing.id !== id)
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/** Highlights a saved model's building on the map and flies to it. */
export async function showMonomerModel(
  context: CityActionContext,
  model: { tileset_id: string | null; feature_ids: readonly (number | string)[] },
): Promise<void> {
  const featureId = model.feature_ids.find((id): id is number => typeof id === 'number')
  if (!model.tileset_id || featureId === undefined) return
  await context.engine
    .run('city.selectFeature', { tilesetId: model.tileset_id, featureId })
    .catch(engineFailureIsHarmless)
  await context.engine
    .run('city.flyTo', { tilesetId: model.tileset_id, featureId })
    .catch(engineFailureIsHarmless)
}
