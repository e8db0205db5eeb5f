/**
 * Real byte progress for the upload window when several files travel in one multipart request:
 * the browser reports bytes of the whole body, and the files lie in it one after the other, so
 * each file's share is the part of the sent bytes that falls inside its span. The small
 * multipart headers are spread over the files by scaling the body size to the files' sizes.
 */
export function filePercentsOf(
  fileSizesBytes: readonly number[],
  sentBytes: number,
  bodyBytes: number,
): number[] {
  const totalFileBytes = fileSizesBytes.reduce((sum, size) => sum + size, 0)
  if (totalFileBytes === 0) return fileSizesBytes.map(() => (sentBytes >= bodyBytes ? 100 : 0))
  const sentFileBytes =
    bodyBytes > 0 ? Math.min(1, Math.max(0, sentBytes / bodyBytes)) * totalFileBytes : 0
  let start = 0
  return fileSizesBytes.map((size) => {
    const done = Math.min(size, Math.max(0, sentFileBytes - start))
    start += size
    return size === 0 ? (sentFileBytes >= start ? 100 : 0) : (done / size) * 100
  })
}

let rowSequence = 0

/** A row id no other upload row uses in this page's life. */
export function nextUploadRowId(prefix: string): string {
  rowSequence += 1
  return `${prefix}-${Date.now().toString(36)}-${rowSequence}`
}
