/* The entry types of an offline package plan (offline-package-contents.ts). */

/** Where one entry's bytes come from. */
export type PackageSource =
  | { kind: 'text'; text: string }
  | { kind: 'stored'; sha256: string }
  /**
   * A file on disk; `inflatesGzip`: written inflated when it is gzip-compressed on disk (a
   * tileset's files, which a server would send with `Content-Encoding: gzip`).
   */
  | { kind: 'file'; path: string; inflatesGzip?: boolean }
  /** Another source's bytes as a script for the offline viewer (offline-package-viewer.ts). */
  | { kind: 'script'; path: string; of: PackageSource }

/** One file of the package: its path in the zip, its bytes, and whether deflating pays. */
export interface PackageEntry {
  path: string
  source: PackageSource
  /** Bytes before compression (for progress). */
  sizeBytes: number
  /** JSON and GML shrink a lot; models, tiles and PMTiles barely do, so they are stored as is. */
  isDeflated: boolean
}
