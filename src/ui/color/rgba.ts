/**
 * Colours travel as CSS rgba strings (SPEC §3 "Colours are rgba with alpha"). These helpers
 * parse and format them and map the opacity slider (0–100) to alpha (0–1, two decimals).
 */

/** A colour with 0–255 channels and alpha 0–1. */
export interface Rgba {
  red: number
  green: number
  blue: number
  alpha: number
}

/** SPEC §9 "Default colour": rgba white at half opacity. */
export const defaultRgbaColor = 'rgba(255,255,255,0.5)'

/** {@link defaultRgbaColor} as channels. */
export const defaultRgba: Readonly<Rgba> = { red: 255, green: 255, blue: 255, alpha: 0.5 }

const channel = (value: number) => Math.round(Math.min(255, Math.max(0, value)))

/** Alpha kept with two decimals, as the opacity slider moves in whole percents. */
export function roundAlpha(alpha: number): number {
  return Math.round(Math.min(1, Math.max(0, alpha)) * 100) / 100
}

/** Opacity slider position (0–100) for an alpha (0–1). */
export function opacityPercentFromAlpha(alpha: number): number {
  return Math.round(roundAlpha(alpha) * 100)
}

/** Alpha (0–1, two decimals) for an opacity slider position (0–100). */
export function alphaFromOpacityPercent(percent: number): number {
  return roundAlpha(percent / 100)
}

/** Formats as `rgba(r,g,b,a)` without spaces, alpha with at most two decimals. */
export function formatRgba(color: Rgba): string {
  return `rgba(${channel(color.red)},${channel(color.green)},${channel(color.blue)},${roundAlpha(color.alpha)})`
}

/**
 * Reads `rgba(…)`, `rgb(…)` (commas or spaces, alpha as a number or a percent) and hex
 * (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`). Null when the text is none of these.
 */
export function parseRgba(text: string): Rgba | null {
  const trimmed = text.trim().toLowerCase()
  if (trimmed.startsWith('#')) return parseHex(trimmed.slice(1))
  const functional = /^rgba?\(\s*([^)]*)\)$/.exec(trimmed)
  if (!functional?.[1]) return null
  const parts = functional[1].split(/\s*[,/]\s*|\s+/).filter((part) => part !== '')
  if (parts.length !== 3 && parts.length !== 4) return null
  const [red, green, blue] = parts.slice(0, 3).map(parseChannel)
  const alpha = parts[3] === undefined ? 1 : parseAlpha(parts[3])
  if (red == null || green == null || blue == null || alpha === null) return null
  return { red, green, blue, alpha }
}

function parseChannel(part: string): number | null {
  const isPercent = part.endsWith('%')
  const value = Number(isPercent ? part.slice(0, -1) : part)
  if (!Number.isFinite(value)) return null
  return channel(isPercent ? (value / 100) * 255 : value)
}

function parseAlpha(part: string): number | null {
  const isPercent = part.endsWith('%')
  const value = Number(isPercent ? part.slice(0, -1) : part)
  if (!Number.isFinite(value)) return null
  return roundAlpha(isPercent ? value / 100 : value)
}

function parseHex(digits: string): Rgba | null {
  if (!/^[0-9a-f]+$/.test(digits)) return null
  const expanded =
    digits.length === 3 || digits.length === 4
      ? [...digits].map((digit) => digit + digit).join('')
      : digits
  if (expanded.length !== 6 && expanded.length !== 8) return null
  const byteAt = (index: number) => Number.parseInt(expanded.slice(index, index + 2), 16)
  return {
    red: byteAt(0),
    green: byteAt(2),
    blue: byteAt(4),
    alpha: expanded.length === 8 ? roundAlpha(byteAt(6) / 255) : 1,
  }
}

/** `#rrggbb` for a colour, ignoring alpha (what `<input type="color">` takes). */
export function hexFromRgba(color: Rgba): string {
  const hex = (value: number) => channel(value).toString(16).padStart(2, '0')
  return `#${hex(color.red)}${hex(color.green)}${hex(color.blue)}`
}

/** `#rrggbbaa` for a colour, alpha as its nearest byte (how drawings store colours, issue 18). */
export function hexWithAlphaFromRgba(color: Rgba): string {
  const alpha = Math.round(roundAlpha(color.alpha) * 255)
  return `${hexFromRgba(color)}${alpha.toString(16).padStart(2, '0')}`
}
