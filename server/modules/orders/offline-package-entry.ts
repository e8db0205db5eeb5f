/* The entry types of an offline package plan (offline-package-contents.ts). */
import type { FileStorage, StorageArea } from '../../plugins/storage'

/** Where one entry's bytes come from. */
export type PackageSource =
  /** Bytes the plan already holds (JSON, scripts), encoded once. */
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'stored'; sha256: string }
  /**
   * A file on disk; `inflatesGzip`: written inflated when it is gzip-compressed on disk (a
   * tileset's files, which a server would send with `Content-Encoding: gzip`).
   */
  | { kind: 'file'; path: string; inflatesGzip?: boolean }
  /** A named file of the store (a tileset version's file), inflated like a `file`'s. */
  | { kind: 'named'; area: StorageArea; name: string; inflatesGzip: boolean }
  /** Another source's bytes as a script for the offline viewer (offline-package-viewer.ts). */
  | { kind: 'script'; path: string; of: PackageSource }
  /**
   * Several sources' bytes one after the other, each opened when its turn comes (the viewer's
   * `data.js`: the scene's JSON around the POI list's file, never all in memory at once).
   */
  | { kind: 'parts'; parts: PackageSource[] }
  /**
   * A project's POI list as one JSON array, read by the writer's thread from the database as
   * the entry is written (offline-package-pois.ts): no copy of it is kept anywhere first.
   */
  | { kind: 'pois'; projectId: string }

/** One file of the package: its path in the zip, its bytes, and whether deflating pays. */
export interface PackageEntry {
  path: string
  source: PackageSource
  /** Bytes before compression (for progress). */
  sizeBytes: number
  /** JSON and GML shrink a lot; models, tiles and PMTiles barely do, so they are stored as is. */
  isDeflated: boolean
}

/**
 * A file of the content-addressed store at `path` in the package. Its size is the store's; a
 * file gone from the store keeps its row's size here and fails the build when it is read.
 */
export async function storedEntry(
  storage: FileStorage,
  file: { path: string; sha256: string; rowSizeBytes: number | string; isDeflated?: boolean },
): Promise<PackageEntry> {
  return {
    path: file.path,
    source: { kind: 'stored', sha256: file.sha256 },
    sizeBytes: (await storage.sizeOf(file.sha256)) ?? Number(file.rowSizeBytes),
    isDeflated: file.isDeflated ?? false,
  }
}

/** A text the plan holds (JSON, a script; a string or its UTF-8), deflated: text shrinks a lot. */
export function textEntry(path: string, text: string | Buffer): PackageEntry {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  return { path, source: { kind: 'bytes', bytes }, sizeBytes: bytes.byteLength, isDeflated: true }
}
