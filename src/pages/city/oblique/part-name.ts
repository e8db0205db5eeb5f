/**
 * A readable name for a tile content: `city/tileset.json` → `city` (an external tileset is
 * named by its folder), `building.b3dm` → `building`; null without a URI.
 */
export function partNameFromUri(uri: string | null): string | null {
  if (!uri) return null
  const path = uri.split(/[?#]/)[0] ?? ''
  const segments = path.split('/').filter(Boolean)
  const fileName = segments.at(-1) ?? ''
  // An external tileset is named by its folder: `city/tileset.json` is the city.
  if (/^tileset\.json$/i.test(fileName) && segments.length > 1) return segments.at(-2) ?? null
  const stem = fileName.replace(/\.[^.]+$/, '')
  return stem === '' ? null : decodeURIComponent(stem)
}
