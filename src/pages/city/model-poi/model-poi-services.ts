import { type CopyModelBody, type CopyModelDatum, copyModel } from '../../../api/model-copy'
import {
  findModelsByPoi,
  linkPoisToModel,
  type ModelPoiItem,
  type PoiModel,
  selectPoisByModel,
  updatePoi,
} from '../../../api/pois'

/**
 * The calls of the model-POI page and the model copy popup (tests hand in an in-memory
 * stand-in): `selectPoisBymodel`, `addPoi`, `findModelByPoi`, `updataPoi` (to detach a POI from
 * one model: its other links stay) and `copyModel`.
 */
export interface ModelPoiServices {
  selectPoisByModel(modelId: string): Promise<ModelPoiItem[]>
  linkPoisToModel(modelId: string, ids: string[]): Promise<number>
  findModelsByPoi(poiId: string): Promise<PoiModel[]>
  /** Replaces the models a POI is attached to. */
  setPoiModels(poiId: string, modelIds: string[]): Promise<void>
  copyModel(body: CopyModelBody): Promise<CopyModelDatum>
}

/** The server's calls. */
export const serverModelPoiServices: ModelPoiServices = {
  selectPoisByModel,
  linkPoisToModel,
  findModelsByPoi,
  async setPoiModels(poiId, modelIds) {
    await updatePoi({ id: poiId, modelList: modelIds })
  },
  copyModel,
}
