/**
 * The `Content-Disposition` of a file sent to be saved under `fileName` (RFC 6266): an ASCII
 * fallback plus the UTF-8 name, so Korean and Chinese names survive. One place for every
 * download route.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}
