import { ZipError } from './zip-errors'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Decodes an entry name. Zip says "CP437 unless flag bit 11 says UTF-8", but in practice names
 * without the flag are UTF-8 (most tools) or the Windows code page of whoever zipped them, which
 * for this product's users is usually GBK. So: the flag or valid UTF-8 wins, else the fallback
 * encoding (`gb18030`, a superset of GBK, by default).
 */
export function decodeEntryName(
  rawName: Uint8Array,
  isUtf8Flagged: boolean,
  fallbackEncoding: string,
): string {
  if (isUtf8Flagged) return new TextDecoder('utf-8').decode(rawName)
  try {
    return utf8.decode(rawName)
  } catch {
    return new TextDecoder(fallbackEncoding).decode(rawName)
  }
}

/**
 * Checks that a name stays inside the folder it is extracted to and returns it normalised
 * (no `./` or empty segments) so that `a//b` and `a/./b` cannot pose as different entries.
 * Refuses, rather than repairs, anything path-escaping: an archive that tries it is hostile.
 */
export function toSafeEntryName(name: string): string {
  const refuse = (why: string): never => {
    throw new ZipError('archive.unsafeEntryName', `Entry name ${JSON.stringify(name)} ${why}`, name)
  }
  if (name.length === 0) refuse('is empty')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f]/.test(name)) refuse('contains control characters')
  if (name.includes('\\')) refuse('contains a backslash')
  if (name.startsWith('/')) refuse('is an absolute path')
  if (/^[a-zA-Z]:/.test(name)) refuse('starts with a drive letter')
  const isDirectory = name.endsWith('/')
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.')
  if (segments.includes('..')) refuse('climbs out of its folder')
  if (segments.length === 0) refuse('names no file')
  return segments.join('/') + (isDirectory ? '/' : '')
}
