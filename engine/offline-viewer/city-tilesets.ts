import { TilesRenderer } from '3d-tiles-renderer'
import { GLTFExtensionsPlugin } from '3d-tiles-renderer/plugins'
import { Box3, type Camera, type Group, Matrix4, Sphere, type WebGLRenderer } from 'three'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
import { type CityFrame, eastNorthUpAt, lngLatOf } from './city-frame'
import { loadPackageFile, type ViewerPackageData, type ViewerTileset } from './package-data'

/** A root centre farther than this from the Earth's centre is Earth-centred (georeferenced). */
const earthFixedRadiusMeters = 6_000_000

/**
 * The package path a tile's address names: the root's address comes as given (relative to
 * index.html), the tiles' resolved against it.
 */
function packagePathOf(url: string): string | null {
  const base = new URL('.', location.href).href
  const address = new URL(url, location.href).href.split(/[?#]/)[0] ?? ''
  return address.startsWith(base) ? decodeURIComponent(address.slice(base.length)) : null
}

/**
 * A 3DTilesRendererJS plugin that reads tileset JSON and tiles from the package's scripts:
 * under `file://` Chromium refuses `fetch` of local files.
 */
function packageFilesPlugin(data: ViewerPackageData) {
  return {
    name: 'TWINSCAPE_PACKAGE_FILES',
    async fetchData(url: string): Promise<Response> {
      const path = packagePathOf(url)
      if (path === null) throw new Error(`not in the package: ${url}`)
      return new Response((await loadPackageFile(data, path)).buffer as ArrayBuffer)
    },
  }
}

interface OpenTileset {
  source: ViewerTileset
  tiles: TilesRenderer
  /** The root's bounding sphere in the tileset's own frame; null when the root failed. */
  rootSphere: Sphere | null
  /** Tileset frame → ECEF, once placed. */
  toEcef: Matrix4
}

/**
 * The city project's tilesets in the offline viewer, drawn by 3DTilesRendererJS (three.js,
 * tiles parsed on the main thread: workers cannot start under `file://`) and placed as the
 * online city scene places them: an Earth-centred tileset where it is, or moved to the user's
 * placement; a tileset in local metres at its placement, else at the project's centre.
 */
export class CityTilesets {
  private readonly open: OpenTileset[] = []
  private updatesSincePlaced = 0

  /** Starts loading every visible tileset's root; resolves once each root loaded or failed. */
  static async load(
    data: ViewerPackageData,
    camera: Camera,
    renderer: WebGLRenderer,
  ): Promise<CityTilesets> {
    const tilesets = new CityTilesets()
    await Promise.all(
      (data.tilesets ?? [])
        .filter((source) => source.is_visible)
        .map(async (source) => {
          const tiles = new TilesRenderer(source.root)
          tiles.registerPlugin(packageFilesPlugin(data))
          tiles.registerPlugin(new GLTFExtensionsPlugin({ meshoptDecoder: MeshoptDecoder }))
          tiles.setCamera(camera)
          tiles.setResolutionFromRenderer(camera, renderer)
          const loaded = new Promise<boolean>((resolve) => {
            tiles.addEventListener('load-root-tileset', () => resolve(true))
            tiles.addEventListener('load-error', (event) => {
              if (event.tile === null) resolve(false)
            })
          })
          // the first update asks for the root tileset JSON
          tiles.update()
          const rootSphere = (await loaded) ? new Sphere() : null
          if (rootSphere && !tiles.getBoundingSphere(rootSphere)) rootSphere.makeEmpty()
          tilesets.open.push({ source, tiles, rootSphere, toEcef: new Matrix4() })
        }),
    )
    return tilesets
  }

  /** How many tilesets are shown (roots that loaded). */
  get count(): number {
    return this.open.filter((entry) => entry.rootSphere !== null).length
  }

  /**
   * Where the first placed or Earth-centred tileset stands, for the frame's centre; null when
   * every tileset is in local metres without a placement (they go to the project's centre).
   */
  geographicCentre(): { lng: number; lat: number } | null {
    for (const entry of this.open) {
      if (!entry.rootSphere) continue
      if (entry.source.placement) return entry.source.placement
      if (entry.rootSphere.center.length() > earthFixedRadiusMeters)
        return lngLatOf(entry.rootSphere.center)
    }
    return null
  }

  /** Puts every tileset into the frame; `anchor` is where unplaced local tilesets go. */
  place(frame: CityFrame, anchor: { lng: number; lat: number }): void {
    for (const entry of this.open) {
      const sphere = entry.rootSphere
      if (!sphere) continue
      const isEarthFixed = sphere.center.length() > earthFixedRadiusMeters
      const placement = entry.source.placement
      if (placement) {
        const placed = eastNorthUpAt(placement.lng, placement.lat, placement.height_offset)
        // clockwise from north, seen from above
        placed.multiply(new Matrix4().makeRotationZ((-placement.heading * Math.PI) / 180))
        if (isEarthFixed) {
          // moved as a whole: its own ground frame onto the placement's
          const own = lngLatOf(sphere.center)
          placed.multiply(eastNorthUpAt(own.lng, own.lat, 0).invert())
        }
        entry.toEcef.copy(placed)
      } else if (!isEarthFixed) {
        entry.toEcef.copy(eastNorthUpAt(anchor.lng, anchor.lat, 0))
      } else {
        entry.toEcef.identity()
      }
      const group = entry.tiles.group
      new Matrix4()
        .multiplyMatrices(frame.worldFromEcef, entry.toEcef)
        .decompose(group.position, group.quaternion, group.scale)
      group.updateMatrixWorld(true)
    }
    this.updatesSincePlaced = 0
  }

  /** The groups to add to the scene. */
  groups(): Group[] {
    return this.open.filter((entry) => entry.rootSphere).map((entry) => entry.tiles.group)
  }

  /** The roots' bounds in the viewer's world (empty without tilesets). */
  bounds(): Box3 {
    const box = new Box3()
    for (const entry of this.open) {
      if (!entry.rootSphere || entry.rootSphere.isEmpty()) continue
      const sphere = entry.rootSphere.clone().applyMatrix4(entry.tiles.group.matrixWorld)
      box.union(sphere.getBoundingBox(new Box3()))
    }
    return box
  }

  /** Once a frame, after the camera moved: chooses and loads the tiles the view needs. */
  update(): void {
    for (const entry of this.open) {
      if (entry.rootSphere) entry.tiles.update()
    }
    this.updatesSincePlaced++
  }

  /**
   * Whether the tiles the first views asked for have all arrived (or failed) and are shown.
   * `loadProgress` alone reads 1 while nothing is queued yet, which on a busy machine can last
   * past the first frames: the scene was called ready with no tile drawn (CI, session 15).
   */
  isSettled(): boolean {
    return (
      this.updatesSincePlaced > 2 &&
      this.open.every(
        (entry) =>
          !entry.rootSphere ||
          (entry.tiles.loadProgress === 1 &&
            (entry.tiles.visibleTiles.size > 0 || failedTileCount(entry.tiles) > 0)),
      )
    )
  }
}

/** Tiles that failed to load (`stats` is public in 3DTilesRendererJS, missing from its types). */
function failedTileCount(tiles: TilesRenderer): number {
  return (tiles as unknown as { stats: { failed: number } }).stats.failed
}
