import {
  addProtocol,
  type Map as MapLibreMap,
  removeProtocol,
  type StyleSpecification,
} from 'maplibre-gl'
import { FetchSource, PMTiles, Protocol, type Source, TileType } from 'pmtiles'
import type { CityBasemap } from '../api/city-snapshot'
import { EngineError } from '../api/errors'
import { fileAddresses } from '../core/file-addresses'
import { basemapFailureOf } from './basemap-failure'
import { createPmtilesStyle } from './basemap-style'
import type { CityPatch } from './city-scene-parts'
import { markCityStep } from './first-render-marks'

/** Registered once: MapLibre protocols are global, the archives in it are per URL. */
let pmtilesProtocol: Protocol | null = null
let pmtilesProtocolUsers = 0

function retainPmtilesProtocol(): void {
  if (pmtilesProtocolUsers++ === 0) {
    pmtilesProtocol = new Protocol()
    addProtocol('pmtiles', pmtilesProtocol.tile)
  }
}

function releasePmtilesProtocol(): void {
  if (--pmtilesProtocolUsers === 0) {
    removeProtocol('pmtiles')
    pmtilesProtocol = null
  }
}

/**
 * The archive's bytes at its signed address, renewed shortly before it expires and once when
 * the server refuses it (the style keeps naming the first address: it is the archive's key in
 * the protocol).
 */
function renewingSource(url: string): Source {
  const source = new FetchSource(url)
  return {
    getKey: () => url,
    async getBytes(offset, length, signal, etag) {
      source.url = await fileAddresses.fresh(url)
      try {
        return await source.getBytes(offset, length, signal, etag)
      } catch (error) {
        // FetchSource reports a refusal only as "Bad response code: 403".
        if (!/\b40[13]\b/.test(String(error)) || !(await fileAddresses.renew())) throw error
        source.url = fileAddresses.current(url)
        return source.getBytes(offset, length, signal, etag)
      }
    },
  }
}

/** Reads a PMTiles archive's header and builds a style that draws it. */
async function pmtilesStyle(url: string): Promise<StyleSpecification> {
  const archive = new PMTiles(renewingSource(url))
  pmtilesProtocol?.add(archive)
  const header = await archive.getHeader()
  const isVector = header.tileType === TileType.Mvt
  const metadata = (isVector ? await archive.getMetadata() : {}) as {
    vector_layers?: { id: string }[]
    attribution?: string
  }
  return createPmtilesStyle({
    url,
    kind: isVector ? 'vector' : 'raster',
    minZoom: header.minZoom,
    maxZoom: header.maxZoom,
    vectorLayerIds: (metadata.vector_layers ?? []).map((layer) => layer.id),
    ...(metadata.attribution ? { attribution: metadata.attribution } : {}),
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The basemap part of a city scene: which MapLibre style is under the tilesets (offline,
 * online or a PMTiles archive through the `pmtiles://` protocol), and whether it loaded.
 * deck's layers survive MapLibre's style swaps, so nothing else changes with the basemap.
 */
export class BasemapController {
  private kind: CityBasemap['kind']
  private isDisposed = false
  /** Drawn instead of an online style that fails, so the user is not left on an empty sheet. */
  private fallback: StyleSpecification | null = null
  private isOnFallback = false
  /** Bumped by every `set`: a `style.load` of an earlier style is not this one's. */
  private styleSequence = 0

  constructor(
    private readonly map: MapLibreMap,
    initial: CityBasemap,
    private readonly publish: (patch: CityPatch) => void,
  ) {
    this.kind = initial.kind
    if (initial.kind === 'pmtiles') retainPmtilesProtocol()
    // No 'load' listener: it fires for the empty placeholder style and would report the
    // basemap loaded (and clear its error) before the real style arrived; `set` publishes.
    map.on('error', (event: { error?: unknown }) => {
      // Tile and style failures of the basemap arrive here; tilesets report theirs per tile.
      if (map.isStyleLoaded() || this.isOnFallback) return
      this.publishState(false, event.error ?? 'error')
      if (this.fallback && !this.isDisposed) {
        // the failure stays published (the UI says it); the fallback only keeps land in view
        this.isOnFallback = true
        map.setStyle(this.fallback, { diff: false })
      }
    })
  }

  /** The snapshot's basemap before its style has loaded. */
  initialState(): CityPatch['basemap'] {
    return { kind: this.kind, isLoaded: false, error: null, failure: null }
  }

  /** Switches the style; a failure is published and thrown as `city.basemapFailed`. */
  async set(basemap: CityBasemap): Promise<void> {
    if (basemap.kind === 'pmtiles' && this.kind !== 'pmtiles') retainPmtilesProtocol()
    if (basemap.kind !== 'pmtiles' && this.kind === 'pmtiles') releasePmtilesProtocol()
    this.kind = basemap.kind
    this.fallback =
      basemap.kind === 'online' && basemap.fallbackStyle
        ? (basemap.fallbackStyle as unknown as StyleSpecification)
        : null
    this.isOnFallback = false
    const sequence = ++this.styleSequence
    this.publishState(false, null)
    let style: StyleSpecification | string
    try {
      style =
        basemap.kind === 'pmtiles'
          ? await pmtilesStyle(basemap.url)
          : 'style' in basemap
            ? (basemap.style as unknown as StyleSpecification)
            : basemap.styleUrl
    } catch (error) {
      this.publishState(false, error)
      throw new EngineError('city.basemapFailed', messageOf(error))
    }
    if (this.isDisposed) return
    this.map.setStyle(style, { diff: false })
    this.map.once('style.load', () => {
      markCityStep('basemap-style-loaded')
      if (sequence === this.styleSequence && !this.isOnFallback) this.publishState(true, null)
    })
  }

  /** Lets go of the PMTiles protocol (the map itself is removed by the scene). */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    if (this.kind === 'pmtiles') releasePmtilesProtocol()
  }

  /** `error` is what failed (null when nothing did); the UI words it by its failure kind. */
  private publishState(isLoaded: boolean, error: unknown): void {
    if (this.isDisposed) return
    const failed = error !== null && error !== undefined
    this.publish({
      basemap: {
        kind: this.kind,
        isLoaded,
        error: failed ? messageOf(error) : null,
        failure: failed ? basemapFailureOf(error) : null,
      },
    })
  }
}
