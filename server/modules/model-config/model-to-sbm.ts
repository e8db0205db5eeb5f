import type { ServerMessageItem } from '../../../contract/common'
import { formatServerMessage, type ServerMessage } from '../../../contract/messages'
import { parseGlb, writeGlb } from '../../../workers/sbm/glb'
import { AppError } from '../../http/app-error'
import type { FileStorage } from '../../plugins/storage'
import { extensionOf } from '../building/building-views'
import type { ConversionPool } from '../building/conversion-pool'
import { inspectSbm, readAll } from '../building/model-files'
import { ConversionError, conversionRefusal } from '../convert/conversion-error'
import { pixelBudgetProblem, readImageHeader, textureBudget } from '../images/image-header'
import { type MergeFile, notImage } from './merge-inputs'

/** A floor as a converted SBM's header names it. */
export interface SbmFloor {
  id: string
  name: string
  elevationMeters: number
}

/** One model of a merge or an add, as an SBM marked for its place in the structure. */
export interface ConvertedPart {
  bytes: Uint8Array
  preview: Uint8Array | null
  warnings: ServerMessage[]
}

/** Turns one uploaded model into the SBM of a structure's shell or floor. */
export type ModelToSbm = (
  userId: string,
  model: MergeFile,
  maps: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
  role: 'shell' | 'floor',
  floor: SbmFloor | null,
  signal: AbortSignal,
) => Promise<ConvertedPart>

/** An SBM whose header marks it as the structure's shell or one floor of it. */
export function markedSbm(
  bytes: Uint8Array,
  role: 'shell' | 'floor',
  floor: SbmFloor | null,
): Uint8Array<ArrayBuffer> {
  const glb = parseGlb(bytes)
  const json = structuredClone(glb.json) as { asset: { extras: { sbm: Record<string, unknown> } } }
  json.asset.extras.sbm.role = role
  if (floor) {
    json.asset.extras.sbm.floors = [
      { id: floor.id, name: floor.name, elevation: floor.elevationMeters },
    ]
  } else delete json.asset.extras.sbm.floors
  return writeGlb({ json, bin: glb.bin, extraChunks: glb.extraChunks })
}

/** The stored bytes of an uploaded file. */
export async function readMergeFile(storage: FileStorage, file: MergeFile): Promise<Uint8Array> {
  return new Uint8Array(await readAll(await storage.open(file.sha256)))
}

/**
 * The conversion step the structure merge and the structure add share: an SBM is checked and
 * re-marked as it is; other formats go through the user's conversion queue with the maps beside
 * them, so the converter embeds the maps the model refers to. A refusal names the model.
 */
export function createModelToSbm(dependencies: {
  storage: FileStorage
  conversions: ConversionPool
}): ModelToSbm {
  const { storage, conversions } = dependencies
  return async (userId, model, maps, role, floor, signal) => {
    const bytes = await readMergeFile(storage, model)
    if (extensionOf(model.name) === 'sbm') {
      inspectSbm(model.name, bytes)
      const marked = markedSbm(bytes, role, floor)
      const preview = await conversions.previewForUser(userId, marked).catch(() => null)
      return { bytes: marked, preview, warnings: [] }
    }
    const job = conversions.submit(userId, {
      entryPath: model.name,
      // copies: the pool transfers each buffer to its thread, and the maps serve every floor
      files: [
        { path: model.name, bytes: new Uint8Array(bytes) },
        ...maps.map((map) => ({ path: map.name, bytes: new Uint8Array(map.bytes) })),
      ],
      role,
      ...(floor ? { floors: [floor] } : {}),
      allowMissingTextures: true,
    })
    const stop = () => job.cancel()
    signal.addEventListener('abort', stop)
    try {
      const converted = await job.result
      return {
        bytes: converted.sbm,
        preview: converted.preview,
        warnings: converted.summary.warnings,
      }
    } catch (error) {
      if (error instanceof ConversionError) throw conversionRefusal(error, model.name)
      throw error
    } finally {
      signal.removeEventListener('abort', stop)
    }
  }
}

/** A message as a job's status lists it (warnings, the refusal), English beside its id. */
export function itemOf(message: ServerMessage): ServerMessageItem {
  return {
    messageId: message.id,
    params: message.params,
    message: formatServerMessage(message.id, message.params),
  }
}

/** Why a job failed, as its status shows it: the refusal's message, or "internal error". */
export function errorItemOf(error: unknown): ServerMessageItem {
  if (error instanceof AppError) {
    return { messageId: error.messageId, params: error.params, message: error.message }
  }
  return itemOf({ id: 'error.internal', params: {} })
}

/**
 * Measures every map before anything converts: a map that is not an image, or declares more
 * pixels than a texture may have, refuses the whole request at once, naming the file.
 */
export async function checkMapImages(
  storage: FileStorage,
  groups: ReadonlyArray<readonly ['shell_maps' | 'floor_maps', readonly MergeFile[]]>,
): Promise<void> {
  for (const [field, maps] of groups) {
    for (const map of maps) {
      const header = readImageHeader(await readMergeFile(storage, map), {
        isTga: extensionOf(map.name) === 'tga',
      })
      if (!header) throw notImage(field, 'modelConfig.mapNotImage', map.name)
      if (pixelBudgetProblem(header, textureBudget) !== null) {
        throw new AppError('tooLarge', 'convert.oversizedTextures', {
          maxSide: textureBudget.maxSidePixels,
          names: map.name,
        })
      }
    }
  }
}
