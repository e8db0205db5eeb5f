/** The rules of the basemap setting form, pure so they are tested without a map. */

/** The basemap kinds offered, in the order shown (decisions.md "Maps"). */
export type BasemapChoice = 'offline' | 'online' | 'pmtiles'

/** Why a style address is refused, or null when it is usable. */
export type StyleUrlProblem = 'empty' | 'notUrl' | 'notHttp' | null

/**
 * Checks an online MapLibre style address: an absolute http(s) URL (the server refuses
 * anything else too; checking here gives the message before a round trip).
 */
export function styleUrlProblem(text: string): StyleUrlProblem {
  const trimmed = text.trim()
  if (trimmed === '') return 'empty'
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return 'notUrl'
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'notHttp'
}

/** File names a PMTiles basemap upload accepts. */
export const pmtilesFilePattern = /\.pmtiles$/i
