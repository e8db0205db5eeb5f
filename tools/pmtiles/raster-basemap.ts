import { encodePng } from '../../server/modules/convert/png'
import { writePmtiles } from './pmtiles-writer'

/** Options of {@link generateRasterBasemap}. */
export interface RasterBasemapOptions {
  /** Picks the colours; the same seed always gives the same bytes. */
  seed: number
  minZoom?: number
  /** Highest zoom stored; MapLibre over-zooms its tiles beyond it. */
  maxZoom?: number
  /** Width and height of each PNG tile. */
  tileSizePixels?: number
  /** Archive name in the metadata (shown nowhere, but real archives carry one). */
  name?: string
}

/** A generated raster basemap and the colour each zoom level is painted in. */
export interface RasterBasemap {
  bytes: Uint8Array
  /** `#rrggbb` per zoom level, index = zoom (undefined below `minZoom`). */
  colorsByZoom: string[]
  minZoom: number
  maxZoom: number
}

/** mulberry32: a tiny seeded generator; tests need repeatable archives, not good randomness. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = Math.imul(state ^ (state >>> 15), state | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
  }
}

function hslToRgb(
  hueDegrees: number,
  saturation: number,
  lightness: number,
): [number, number, number] {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation
  const sector = (hueDegrees % 360) / 60
  const second = chroma * (1 - Math.abs((sector % 2) - 1))
  const [red, green, blue] =
    sector < 1
      ? [chroma, second, 0]
      : sector < 2
        ? [second, chroma, 0]
        : sector < 3
          ? [0, chroma, second]
          : sector < 4
            ? [0, second, chroma]
            : sector < 5
              ? [second, 0, chroma]
              : [chroma, 0, second]
  const match = lightness - chroma / 2
  return [red, green, blue].map((channel) => Math.round((channel + match) * 255)) as [
    number,
    number,
    number,
  ]
}

function hexOf([red, green, blue]: readonly number[]): string {
  return `#${[red, green, blue].map((channel) => (channel ?? 0).toString(16).padStart(2, '0')).join('')}`
}

/**
 * A raster PMTiles basemap covering the whole world from `minZoom` to `maxZoom`, every tile of a
 * zoom level one flat, saturated colour (hues spread around the wheel from a seeded start, so
 * no two levels look alike and none looks like the offline map's pale land and water). A test
 * can then tell from the canvas alone that the archive was drawn, and at which zoom level.
 * Each level is one run of identical tiles, so even zoom 8 stays a few hundred bytes.
 */
export function generateRasterBasemap(options: RasterBasemapOptions): RasterBasemap {
  const minZoom = options.minZoom ?? 0
  const maxZoom = options.maxZoom ?? 5
  const tileSizePixels = options.tileSizePixels ?? 256
  if (minZoom < 0 || maxZoom < minZoom || maxZoom > 12) {
    throw new Error(`zoom range ${minZoom}..${maxZoom} is not within 0..12`)
  }
  const random = seededRandom(options.seed)
  const startHue = random() * 360
  const levels = maxZoom - minZoom + 1
  const colorsByZoom: string[] = []
  const pngByZoom: Uint8Array[] = []
  for (let z = minZoom; z <= maxZoom; z++) {
    const rgb = hslToRgb(startHue + ((z - minZoom) * 360) / levels, 0.8, 0.45)
    colorsByZoom[z] = hexOf(rgb)
    const pixels = new Uint8Array(tileSizePixels * tileSizePixels * 3)
    for (let index = 0; index < pixels.length; index += 3) pixels.set(rgb, index)
    pngByZoom[z] = encodePng(pixels, tileSizePixels, tileSizePixels, 'rgb')
  }
  function* tiles() {
    for (let z = minZoom; z <= maxZoom; z++) {
      const data = pngByZoom[z]!
      const size = 2 ** z
      for (let x = 0; x < size; x++) for (let y = 0; y < size; y++) yield { z, x, y, data }
    }
  }
  const bytes = writePmtiles({
    tiles: tiles(),
    tileType: 'png',
    metadata: {
      name: options.name ?? `Seeded basemap ${options.seed}`,
      type: 'baselayer',
      format: 'png',
      attribution: 'Twinscape test basemap',
    },
    center: [0, 0, minZoom],
  })
  return { bytes, colorsByZoom, minZoom, maxZoom }
}
