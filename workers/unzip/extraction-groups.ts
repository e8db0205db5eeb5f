import type { ExtractedArchive } from './extracted-archive'
import { selectEntries } from './zip-extractor'
import type { ArchiveListing } from './zip-reader'

/**
 * Splits an extraction into at most `groupCount` runs of consecutive entries with similar
 * compressed sizes, one per worker. Consecutive runs keep each worker's reads sequential; the
 * minimum size keeps small archives in one job, where a second worker would cost more than it
 * saves. Returns the exact file names of each group.
 */
export function planExtractionGroups(
  listing: ArchiveListing,
  names: readonly string[] | undefined,
  groupCount: number,
  minimumGroupCompressedBytes: number,
): string[][] {
  const selected = selectEntries(listing.entries, names)
  const totalBytes = selected.reduce((sum, entry) => sum + entry.compressedSizeBytes, 0)
  const count = Math.max(
    1,
    Math.min(groupCount, selected.length, Math.floor(totalBytes / minimumGroupCompressedBytes)),
  )
  const groups: string[][] = [[]]
  let doneBytes = 0
  for (const [index, entry] of selected.entries()) {
    const remainingEntries = selected.length - index
    const remainingGroups = count - groups.length
    const isPastShare = doneBytes >= (totalBytes * groups.length) / count
    // Start the next group at its share of the bytes, or when each later group needs an entry.
    if (
      remainingGroups > 0 &&
      groups.at(-1)!.length > 0 &&
      (isPastShare || remainingEntries <= remainingGroups)
    ) {
      groups.push([])
    }
    groups.at(-1)!.push(entry.name)
    doneBytes += entry.compressedSizeBytes
  }
  return groups
}

/** Joins the results of the groups, in group order, into one archive result. */
export function mergeExtractedArchives(parts: readonly ExtractedArchive[]): ExtractedArchive {
  const merged: ExtractedArchive = { packs: [], files: [], totalSizeBytes: 0 }
  for (const part of parts) {
    const packOffset = merged.packs.length
    merged.packs.push(...part.packs)
    for (const file of part.files)
      merged.files.push({ ...file, packIndex: file.packIndex + packOffset })
    merged.totalSizeBytes += part.totalSizeBytes
  }
  return merged
}
