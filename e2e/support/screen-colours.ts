import type { Locator } from '@playwright/test'
import { decodePng } from './png-pixels'

/**
 * The share of an element's on-screen pixels near each asked colour (`#rrggbb`), read from a
 * screenshot (what the compositor shows, as a person sees it). Decoded in Node, not in the page:
 * decoding inside the page made it stop drawing frames under load (see png-pixels.ts).
 */
export async function screenColours(
  element: Locator,
  colours: string[],
): Promise<Record<string, number>> {
  const { data } = decodePng(await element.screenshot())
  const targets = colours.map((hex) => {
    const value = Number.parseInt(hex.slice(1), 16)
    return { hex, rgb: [(value >> 16) & 255, (value >> 8) & 255, value & 255], count: 0 }
  })
  for (let index = 0; index < data.length; index += 4) {
    for (const target of targets) {
      const [r = 0, g = 0, b = 0] = target.rgb
      const distance =
        Math.abs((data[index] ?? 0) - r) +
        Math.abs((data[index + 1] ?? 0) - g) +
        Math.abs((data[index + 2] ?? 0) - b)
      if (distance < 40) target.count++
    }
  }
  const total = Math.max(1, data.length / 4)
  return Object.fromEntries(targets.map((target) => [target.hex, target.count / total]))
}
