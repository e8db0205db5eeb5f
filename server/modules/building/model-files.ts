import { posix } from 'node:path'
import type { Readable } from 'node:stream'
import type { ArchiveLimits } from '../../../workers/unzip/archive-limits'
import { toArchiveSource } from '../../../workers/unzip/archive-source'
import { extractedFileBytes } from '../../../workers/unzip/extracted-archive'
import { ZipError } from '../../../workers/unzip/zip-errors'
import { extractEntries } from '../../../workers/unzip/zip-extractor'
import { readArchiveDirectory } from '../../../workers/unzip/zip-reader'
import { readSbm } from '../../../workers/sbm/read-sbm'
import { SbmError } from '../../../workers/sbm/sbm-error'
import { describeSbm, type SbmInfo } from '../../../workers/sbm/sbm-info'
import {
  convertibleModelExtensions,
  floorUploadMaxFiles,
  modelResourceExtensions,
  sbmUploadMaxBytes,
} from '../../../contract/building'
import { AppError } from '../../http/app-error'
import { pixelBudgetProblem, readImageHeader, textureBudget } from '../images/image-header'

/** An SBM file of an upload, checked, with what the model list needs to know about it. */
export interface InspectedSbm {
  fileName: string
  bytes: Uint8Array
  info: SbmInfo
}

/** Why one file was refused, for the envelope's `details`. */
export interface FileRefusal {
  file: string
  reason: string
}

/** The name a client gave a file, reduced to its last segment so it can never act as a path. */
export function displayNameOf(fileName: string): string {
  const base = posix.basename(fileName.replace(/\\/g, '/')).trim()
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we drop
  return base.replace(/[\u0000-\u001f]/g, '').slice(0, 255)
}

/**
 * Validates an SBM with the same pure reader the web app uses (GLB 2.0 container, the
 * `asset.extras.sbm` marker, self-contained buffers, BVH chunk table). Anything else is refused
 * with SPEC §5's message and the file named in `details`.
 */
export function inspectSbm(fileName: string, bytes: Uint8Array): InspectedSbm {
  try {
    const info = describeSbm(bytes)
    checkSbmTextures(bytes)
    return { fileName, bytes, info }
  } catch (error) {
    const reason = error instanceof SbmError ? error.detail : 'the file could not be read'
    const refusal: FileRefusal = { file: fileName, reason }
    throw new AppError('unsupportedFile', 'model.notValidSbm', {}, { details: [refusal] })
  }
}

/**
 * Refuses an SBM whose embedded images are not images a browser can measure, or declare more
 * pixels than {@link textureBudget}: every viewer decodes them, so a few hundred bytes claiming
 * 60,000 × 60,000 would cost each of them gigabytes. Headers only; nothing is decoded here.
 */
function checkSbmTextures(bytes: Uint8Array): void {
  const { json, bin } = readSbm(bytes)
  const images = (Array.isArray(json.images) ? json.images : []) as Array<{ bufferView: number }>
  const views = (Array.isArray(json.bufferViews) ? json.bufferViews : []) as Array<{
    byteOffset?: number
    byteLength: number
    extensions?: Record<string, unknown>
  }>
  images.forEach((image, index) => {
    // readSbm checked that the view exists and lies inside its buffer
    const view = views[image.bufferView]!
    if (view.extensions?.EXT_meshopt_compression !== undefined || !bin) {
      throw new SbmError(`image ${index} is not stored as plain bytes`)
    }
    const start = view.byteOffset ?? 0
    const header = readImageHeader(bin.subarray(start, start + view.byteLength))
    if (!header || !['png', 'jpeg', 'webp', 'avif'].includes(header.format)) {
      throw new SbmError(`image ${index} is not a PNG, JPEG, WebP or AVIF image`)
    }
    const problem = pixelBudgetProblem(header, textureBudget)
    if (problem) throw new SbmError(`image ${index} is refused because ${problem}`)
  })
}

/** Limits for floor archives on the server: no bigger per model than a directly uploaded SBM. */
const floorArchiveLimits: Partial<ArchiveLimits> = {
  maxEntryCount: 10_000,
  maxEntryUncompressedSizeBytes: sbmUploadMaxBytes,
  maxTotalUncompressedSizeBytes: 2 * 1024 * 1024 * 1024,
  maxCompressionRatio: 250,
}

/**
 * The model files of a floor or shell ZIP (`.sbm` files, and models to convert with their
 * buffers and textures), by their paths inside the archive. The archive's directory is
 * inspected before anything is inflated (names that climb out, absolute or drive paths,
 * duplicates, symbolic links, declared sizes and compression ratios), and the inflated bytes are
 * checked again as they are produced, so a refused archive costs nothing but the read. Other
 * entries (readme, `__MACOSX/`, hidden files) are ignored; an archive with no model is refused.
 */
export async function readModelFilesFromZip(
  zipName: string,
  bytes: Uint8Array,
): Promise<Array<{ path: string; bytes: Uint8Array }>> {
  try {
    const symlink = findSymlinkEntry(bytes)
    if (symlink !== undefined) {
      throw new ZipError(
        'archive.unsafeEntryName',
        `Entry ${JSON.stringify(symlink)} is a symbolic link; links are not accepted.`,
        symlink,
      )
    }
    const source = toArchiveSource(bytes)
    const listing = await readArchiveDirectory(source, { limits: floorArchiveLimits })
    const kept = new Set<string>(['sbm', ...convertibleModelExtensions, ...modelResourceExtensions])
    const wanted = listing.entries.filter(
      (entry) =>
        !entry.isDirectory &&
        kept.has(extensionOf(entry.name)) &&
        !entry.name.startsWith('__MACOSX/') &&
        !posix.basename(entry.name).startsWith('.'),
    )
    const models = wanted.filter((entry) => isModelName(entry.name))
    if (models.length === 0) {
      throw new AppError(
        'unsupportedFile',
        'building.zipHasNoModel',
        { file: zipName },
        {
          details: [{ file: zipName, reason: 'no model entry' } satisfies FileRefusal],
        },
      )
    }
    if (models.length > floorUploadMaxFiles) {
      throw new AppError('tooLarge', 'model.zipTooManyModels', {
        name: zipName,
        count: models.length,
        max: floorUploadMaxFiles,
      })
    }
    const extracted = await extractEntries(source, listing, {
      names: wanted.map((entry) => entry.name),
      limits: floorArchiveLimits,
    })
    return extracted.files.map((file) => ({
      path: file.name,
      bytes: extractedFileBytes(extracted, file),
    }))
  } catch (error) {
    if (!(error instanceof ZipError)) throw error
    const isSize = ['archive.tooLarge', 'archive.entryTooLarge', 'archive.tooManyEntries'].includes(
      error.code,
    )
    throw new AppError(
      isSize ? 'tooLarge' : 'unsupportedFile',
      'model.zipRefused',
      { name: zipName },
      {
        details: [{ file: zipName, reason: error.code } satisfies FileRefusal],
        englishText: `${zipName}: ${error.message}`,
      },
    )
  }
}

/** The lower-case extension of a file name or path, without the dot. */
export function extensionOf(name: string): string {
  return posix.extname(name).slice(1).toLowerCase()
}

/** Whether a file is a model (an SBM, or a format the converter takes), not a resource. */
export function isModelName(name: string): boolean {
  const extension = extensionOf(name)
  return (
    extension === 'sbm' || (convertibleModelExtensions as readonly string[]).includes(extension)
  )
}

const centralHeaderSignature = 0x02014b50
const endOfDirectorySignature = 0x06054b50
const unixHost = 3
const fileTypeMask = 0o170000
const symlinkType = 0o120000

/**
 * The name of the first entry an archiver marked as a Unix symbolic link, if any. The zip
 * reader does not look at external attributes, and a link extracted by a naive tool can point
 * anywhere; refusing such archives outright is simpler than reasoning about targets.
 * Archives whose directory cannot be found here are left to the zip reader to refuse.
 */
export function findSymlinkEntry(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const searchFrom = Math.max(0, bytes.byteLength - 22 - 0xffff)
  let end = -1
  for (let offset = bytes.byteLength - 22; offset >= searchFrom; offset--) {
    if (view.getUint32(offset, true) === endOfDirectorySignature) {
      end = offset
      break
    }
  }
  if (end < 0) return undefined
  const entryCount = view.getUint16(end + 10, true)
  let cursor = view.getUint32(end + 16, true)
  for (let index = 0; index < entryCount; index++) {
    if (cursor + 46 > bytes.byteLength) return undefined
    if (view.getUint32(cursor, true) !== centralHeaderSignature) return undefined
    const madeBy = view.getUint16(cursor + 4, true) >> 8
    const nameLength = view.getUint16(cursor + 28, true)
    const extraLength = view.getUint16(cursor + 30, true)
    const commentLength = view.getUint16(cursor + 32, true)
    const mode = view.getUint32(cursor + 38, true) >>> 16
    if (madeBy === unixHost && (mode & fileTypeMask) === symlinkType) {
      return new TextDecoder().decode(bytes.subarray(cursor + 46, cursor + 46 + nameLength))
    }
    cursor += 46 + nameLength + extraLength + commentLength
  }
  return undefined
}

/** Reads a whole stream (a stored file) into memory. */
export async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
