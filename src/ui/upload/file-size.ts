const units = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/**
 * A byte count for people: 1024-based, one decimal above bytes ("512 B", "1.5 KB", "2.0 MB").
 * Unit symbols are the same in ko, zh and en, so this needs no translation.
 */
export function formatFileSize(sizeBytes: number): string {
  if (!Number.isFinite(sizeBytes) || sizeBytes < 0) return '—'
  let value = sizeBytes
  let unitIndex = 0
  while (value >= 1024 && unitIndex < units.length - 1) {
    value /= 1024
    unitIndex += 1
  }
  // 1023.96 KB would print as "1024.0 KB"; move it up a unit instead.
  if (unitIndex < units.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024
    unitIndex += 1
  }
  return unitIndex === 0 ? `${value} ${units[0]}` : `${value.toFixed(1)} ${units[unitIndex]}`
}
