import { posix } from 'node:path'
import { convertibleModelExtensions, modelResourceExtensions } from '../../../contract/building'
import { templateZipMaxUncompressedBytes } from '../../../contract/template-files'
import type { ArchiveSource } from '../../../workers/unzip/archive-source'
import { isZipError, ZipError } from '../../../workers/unzip/zip-errors'
import { readArchiveDirectory } from '../../../workers/unzip/zip-reader'
import { AppError } from '../../http/app-error'
import { extensionOf, isModelName } from '../building/model-files'
import { findSymlinkEntries, readEntryBytes } from '../tilesets/file-archive'

/** The model of a 3D template zip and the files it may refer to, by their paths in the zip. */
export interface TemplateZipContent {
  /** Path of the model inside the zip (.glb, .gltf, .dae, .fbx or .sbm). */
  modelPath: string
  files: Array<{ path: string; bytes: Uint8Array }>
}

/** Limits of a template zip: a model with its textures, far below a building's. */
const templateZipLimits = {
  maxEntryCount: 2_000,
  maxEntryUncompressedSizeBytes: templateZipMaxUncompressedBytes,
  maxTotalUncompressedSizeBytes: templateZipMaxUncompressedBytes,
  maxCompressionRatio: 250,
}

/**
 * Reads the model of an uploaded 3D template zip (SPEC §5) from disk with the archive checks the
 * other uploads use: the directory is read and checked first (names that climb out or are
 * absolute, duplicates, symbolic links, encryption, methods, declared sizes and zip-bomb
 * ratios), and only the model and its resources are inflated, on zlib's thread pool (never on
 * the request thread), each checked against its declared size and CRC. The zip must hold
 * exactly one model; readme files, `__MACOSX/` and hidden files are ignored.
 */
export async function readTemplateZip(
  source: ArchiveSource,
  zipName: string,
): Promise<TemplateZipContent> {
  try {
    const listing = await readArchiveDirectory(source, { limits: templateZipLimits })
    const links = await findSymlinkEntries(source)
    if (links.length > 0) {
      throw new ZipError(
        'archive.unsafeEntryName',
        `Entry ${JSON.stringify(links[0])} is a symbolic link; links are not accepted.`,
        links[0],
      )
    }
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
        { details: [{ file: zipName, reason: 'no model entry' }] },
      )
    }
    if (models.length > 1) {
      throw new AppError(
        'validation',
        'templateModel.oneModel',
        { file: zipName, count: models.length },
        { details: [{ file: zipName, models: models.slice(0, 10).map((entry) => entry.name) }] },
      )
    }
    for (const entry of wanted) {
      if (entry.isEncrypted) {
        throw new ZipError('archive.encrypted', `${entry.name} is password-protected.`, entry.name)
      }
      if (entry.compressionMethod === 'unsupported') {
        throw new ZipError(
          'archive.unsupportedMethod',
          `${entry.name} uses compression method ${entry.compressionMethodCode}.`,
          entry.name,
        )
      }
    }
    const files: TemplateZipContent['files'] = []
    for (const entry of wanted) {
      // the directory's total was checked above; each inflate is bounded by its declared size
      const bytes = await readEntryBytes(
        source,
        entry,
        templateZipLimits.maxEntryUncompressedSizeBytes,
      )
      files.push({ path: entry.name, bytes })
    }
    return { modelPath: models[0]!.name, files }
  } catch (error) {
    if (!isZipError(error)) throw error
    const isSize = ['archive.tooLarge', 'archive.entryTooLarge', 'archive.tooManyEntries'].includes(
      error.code,
    )
    if (error.code === 'archive.notZip') {
      throw new AppError(
        'unsupportedFile',
        'templateModel.onlyZip',
        {},
        {
          details: [{ file: zipName, reason: error.code }],
          englishText: 'Only zip can be uploaded: the file is not a zip archive.',
        },
      )
    }
    throw new AppError(
      isSize ? 'tooLarge' : 'unsupportedFile',
      'model.zipRefused',
      { name: zipName },
      {
        details: [{ file: zipName, reason: error.code }],
        englishText: `${zipName}: ${error.message}`,
      },
    )
  }
}
