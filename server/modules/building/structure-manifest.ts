import type { z } from 'zod'
import { structureManifestMaxBytes, structureManifestSchema } from '../../../contract/building'
import { AppError, fieldDetail, fieldError } from '../../http/app-error'
import { parseInput } from '../../http/define-route'

/** A building's structure manifest (floors, their models, the shell), checked. */
export type StructureManifest = z.output<typeof structureManifestSchema>

/**
 * Reads an uploaded structure manifest: at most `structureManifestMaxBytes`, JSON (a BOM is
 * allowed), the contract's schema, and each floor id once. A file's content, not a request
 * body, so it is checked here, where the file is read, with the same refusals as a body.
 */
export async function readStructureManifest(
  file: { name: string; sizeBytes: number },
  read: () => Promise<Uint8Array>,
): Promise<StructureManifest> {
  const { name } = file
  // the size first: a large file is refused before it is read into memory
  if (file.sizeBytes > structureManifestMaxBytes) {
    throw new AppError('tooLarge', 'model.structureTooLarge')
  }
  const text = new TextDecoder().decode(await read()).replace(/^\uFEFF/, '')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new AppError(
      'validation',
      'model.structureInvalidJson',
      { name },
      {
        details: [fieldDetail('file', 'validation.notValidJson')],
        englishText: `${name} is not valid JSON: ${(error as Error).message}`,
      },
    )
  }
  const manifest = parseInput(structureManifestSchema, json)
  const floorIds = manifest.floors.map((floor) => floor.id)
  const repeated = floorIds.find((id, index) => floorIds.indexOf(id) !== index)
  if (repeated !== undefined) {
    throw fieldError('validation', 'floors', 'model.floorIdTwice', { floorId: repeated })
  }
  return manifest
}
