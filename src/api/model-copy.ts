import { type CopyModelBody, type CopyModelDatum, modelCopyRoutes } from '../../contract/model-copy'
import { api } from './index'

export type { CopyModelBody, CopyModelDatum, ModelCopyItem } from '../../contract/model-copy'
export { modelCopyLimits } from '../../contract/model-copy'

/** `/poi/copyModel`: copies of a city model with its POIs, all or nothing. */
export async function copyModel(body: CopyModelBody): Promise<CopyModelDatum> {
  const { datum } = await api.call(modelCopyRoutes.copyModel, body, { encoding: 'json' })
  return datum
}
