/**
 * Limits that keep a hostile or broken archive from exhausting a tab's memory. They are checked
 * against the sizes the archive declares before anything is inflated, and again against the
 * bytes actually produced while inflating, because declared sizes can lie.
 */
export interface ArchiveLimits {
  maxEntryCount: number
  maxEntryUncompressedSizeBytes: number
  maxTotalUncompressedSizeBytes: number
  /** Uncompressed ÷ compressed size above which an entry is treated as a zip bomb. */
  maxCompressionRatio: number
  /**
   * Entries smaller than this skip the ratio check: a few kilobytes of zeros legitimately
   * compress a thousandfold and cannot hurt anyone.
   */
  compressionRatioCheckMinimumBytes: number
}

const mebibyte = 1024 * 1024

/**
 * Defaults sized for a browser tab: real 3D uploads (models, tilesets) stay well below them,
 * and real data rarely compresses beyond 100:1 (deflate's ceiling is about 1032:1).
 */
export const defaultArchiveLimits: Readonly<ArchiveLimits> = Object.freeze({
  maxEntryCount: 100_000,
  maxEntryUncompressedSizeBytes: 1024 * mebibyte,
  maxTotalUncompressedSizeBytes: 2048 * mebibyte,
  maxCompressionRatio: 250,
  compressionRatioCheckMinimumBytes: mebibyte,
})

/** Fills unspecified limits with the defaults. */
export function resolveArchiveLimits(limits: Partial<ArchiveLimits> | undefined): ArchiveLimits {
  return { ...defaultArchiveLimits, ...limits }
}
