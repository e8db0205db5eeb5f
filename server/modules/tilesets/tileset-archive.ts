import type { TilesetTopTile } from '../../../contract/city'
import type { ArchiveSource } from '../../../workers/unzip/archive-source'
import { type ArchiveEntry, readArchiveDirectory } from '../../../workers/unzip/zip-reader'
import { isZipError, ZipError } from '../../../workers/unzip/zip-errors'
import { AppError } from '../../http/app-error'
import { findSymlinkEntries, readEntryBytes } from './file-archive'
import {
  type ContentReference,
  collectContentReferences,
  expectedFormatOf,
  parseTilesetJson,
  summarizeTileset,
  TilesetJsonError,
} from './tileset-json'

/** The 3TZ index entry (OGC 3D Tiles "3tz" packages): not part of the tileset itself. */
export const threeTzIndexName = '@3dtilesIndex1@'

/** Limits of an ingest; the defaults come from the configuration. */
export interface TilesetArchiveLimits {
  /** Most bytes the files may expand to together (and one file at most). */
  maxTotalUncompressedBytes: number
  maxEntryCount: number
  /** Larger JSON files are refused rather than parsed in memory. */
  maxJsonBytes: number
  maxTopTiles: number
}

/** What inspection decided: which entries to extract and what the tileset is. */
export interface TilesetArchivePlan {
  /** The root tileset JSON's path inside the archive (and inside the extracted folder). */
  rootPath: string
  /** The entries to extract: files only, without macOS metadata or the 3TZ index. */
  entries: ArchiveEntry[]
  assetVersion: string
  isGeoreferenced: boolean
  topTiles: TilesetTopTile[]
  /** Paths whose contents must carry the magic their extension promises. */
  referencedPaths: Set<string>
  warnings: string[]
  isPackage3tz: boolean
}

/** Files that archivers add and that are never part of a tileset. */
function isArchiverNoise(name: string): boolean {
  return (
    name.startsWith('__MACOSX/') ||
    name.endsWith('/.DS_Store') ||
    name === '.DS_Store' ||
    name.endsWith('Thumbs.db')
  )
}

/**
 * Inspects an uploaded zip or .3tz without extracting it (architecture.md §5 "Uploaded archives
 * are inspected before anything is extracted"): its directory is read and checked (names that
 * escape, duplicates, symlinks, encryption, methods, sizes, zip-bomb ratios), the root tileset
 * JSON is found and parsed, and every content URI of it and of the external tilesets it names is
 * checked to stay inside the archive. Refusals are AppErrors whose messages say what to fix.
 */
export async function inspectTilesetArchive(
  source: ArchiveSource,
  fileName: string,
  limits: TilesetArchiveLimits,
): Promise<TilesetArchivePlan> {
  try {
    return await inspect(source, fileName, limits)
  } catch (error) {
    throw toAppError(error)
  }
}

/** The AppError for a refusal found while reading an archive. */
export function toAppError(error: unknown): unknown {
  if (error instanceof AppError) return error
  if (error instanceof TilesetJsonError) {
    const { id, params } = error.serverMessage
    return new (AppError as new (...values: unknown[]) => AppError)('validation', id, params, {
      englishText: error.message,
    })
  }
  if (isZipError(error)) {
    if (error.code === 'archive.notZip') return new AppError('unsupportedFile', 'tileset.notZip')
    // the worker's English names the entry or the limit: kept for logs and API tools
    const englishText = error.message
    if (error.code === 'archive.tooLarge' || error.code === 'archive.entryTooLarge') {
      return new AppError('tooLarge', error.code, {}, { englishText })
    }
    return new AppError(
      'validation',
      error.code,
      {},
      { englishText, details: { archiveError: error.code, entry: error.detail } },
    )
  }
  return error
}

async function inspect(
  source: ArchiveSource,
  fileName: string,
  limits: TilesetArchiveLimits,
): Promise<TilesetArchivePlan> {
  const listing = await readArchiveDirectory(source, {
    limits: {
      maxEntryCount: limits.maxEntryCount,
      maxEntryUncompressedSizeBytes: limits.maxTotalUncompressedBytes,
      maxTotalUncompressedSizeBytes: limits.maxTotalUncompressedBytes,
    },
  })
  const links = await findSymlinkEntries(source)
  if (links.length > 0) {
    throw new ZipError(
      'archive.unsafeEntryName',
      `The archive holds symbolic links (${links.slice(0, 3).join(', ')}); links are refused because they can point outside the tileset.`,
      links[0],
    )
  }
  const files = listing.entries.filter(
    (entry) => !entry.isDirectory && !isArchiverNoise(entry.name),
  )
  for (const entry of files) {
    if (entry.isEncrypted) {
      throw new ZipError(
        'archive.encrypted',
        `${entry.name} is password-protected; upload the archive without a password.`,
        entry.name,
      )
    }
    if (entry.compressionMethod === 'unsupported') {
      throw new ZipError(
        'archive.unsupportedMethod',
        `${entry.name} uses compression method ${entry.compressionMethodCode}; re-pack the archive with the standard "deflate" (or no) compression.`,
        entry.name,
      )
    }
  }
  const byName = new Map(files.map((entry) => [entry.name, entry]))
  const isPackage3tz = byName.has(threeTzIndexName) || /\.3tz$/i.test(fileName)
  const rootPath = findRootTileset(files, byName, isPackage3tz)
  const rootEntry = byName.get(rootPath)!
  const root = parseTilesetJson(
    await readEntryBytes(source, rootEntry, limits.maxJsonBytes),
    rootPath,
  )
  const summary = summarizeTileset(root, limits.maxTopTiles)

  // the root and every external tileset it reaches, each walked once
  const referencedPaths = new Set<string>([rootPath])
  const missing: string[] = []
  const pending: Array<{ path: string; json: Record<string, unknown> }> = [
    { path: rootPath, json: root },
  ]
  const walked = new Set<string>([rootPath])
  while (pending.length > 0) {
    const { path, json } = pending.pop()!
    for (const reference of collectContentReferences(json, path)) {
      if (reference.archivePath === undefined || reference.isTemplate) continue
      const entry = byName.get(reference.archivePath)
      if (!entry) {
        missing.push(reference.archivePath)
        continue
      }
      referencedPaths.add(entry.name)
      if (isExternalTileset(reference) && !walked.has(entry.name)) {
        walked.add(entry.name)
        const bytes = await readEntryBytes(source, entry, limits.maxJsonBytes)
        pending.push({ path: entry.name, json: parseTilesetJson(bytes, entry.name) })
      }
    }
  }
  const warnings: string[] = []
  if (missing.length > 0) {
    const shown = [...new Set(missing)].slice(0, 5).join(', ')
    const more = missing.length > 5 ? ` and ${missing.length - 5} more` : ''
    warnings.push(`Referenced content missing from the archive: ${shown}${more}.`)
  }
  return {
    rootPath,
    entries: files.filter((entry) => entry.name !== threeTzIndexName),
    assetVersion: summary.assetVersion,
    isGeoreferenced: summary.isGeoreferenced,
    topTiles: summary.topTiles,
    referencedPaths,
    warnings,
    isPackage3tz,
  }
}

function isExternalTileset(reference: ContentReference): boolean {
  return expectedFormatOf(reference.archivePath ?? '') === 'json'
}

/**
 * decisions.md "Oblique photography": tileset.json at the root or inside one top folder (a
 * .3tz: at its root). Without one, a single other JSON at that level is taken; several are
 * refused naming them all, as guessing would show the wrong tileset.
 */
function findRootTileset(
  files: readonly ArchiveEntry[],
  byName: ReadonlyMap<string, ArchiveEntry>,
  isPackage3tz: boolean,
): string {
  if (byName.has('tileset.json')) return 'tileset.json'
  if (isPackage3tz) {
    throw new AppError('validation', 'tileset.no3tzRoot')
  }
  if (files.length === 0) throw new AppError('validation', 'tileset.emptyArchive')
  const topFolders = new Set(
    files.map((entry) => (entry.name.includes('/') ? entry.name.split('/')[0] : '')),
  )
  const singleFolder =
    topFolders.size === 1 && !topFolders.has('') ? [...topFolders][0]! : undefined
  const prefix = singleFolder === undefined ? '' : `${singleFolder}/`
  if (byName.has(`${prefix}tileset.json`)) return `${prefix}tileset.json`

  const candidates = files
    .map((entry) => entry.name)
    .filter((name) => name.startsWith(prefix) && !name.slice(prefix.length).includes('/'))
    .filter((name) => name.toLowerCase().endsWith('.json'))
  if (candidates.length === 1) return candidates[0]!
  if (candidates.length > 1) {
    throw new AppError(
      'validation',
      'tileset.ambiguousRoots',
      { names: candidates.join(', ') },
      { details: { candidates } },
    )
  }
  if (files.some((entry) => /\.osgb$/i.test(entry.name))) {
    throw new AppError('unsupportedFile', 'tileset.osgb')
  }
  throw new AppError('validation', 'tileset.noRoot')
}
