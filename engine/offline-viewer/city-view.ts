import { type Box3, type Camera, type Scene, Vector3, type WebGLRenderer } from 'three'
import { type BasemapGround, createBasemapGround } from './basemap-ground'
import { CityFrame } from './city-frame'
import { CityTilesets } from './city-tilesets'
import type { ViewerPackageData } from './package-data'

/** SPEC §9's city default, where a city without a centre opens (as online). */
const defaultCentre = { lng: 121.6, lat: 31.2 }
/** The ground is at least this wide, so a lone building still stands on a map. */
const minGroundMeters = 2_000
/** …and at most this: the flat ground and one texture stop being faithful beyond it. */
const maxGroundMeters = 200_000

/** A city project's scene in the offline viewer. */
export interface CityView {
  frame: CityFrame
  tilesets: CityTilesets
  ground: BasemapGround | null
  /** What the camera should take in: the tilesets, else the ground around the centre. */
  bounds: Box3
}

/**
 * Opens a city project's scene: its tilesets first (their roots say where the city is, unless
 * the project's centre must do), the frame at that centre, then the basemap on the ground
 * around everything the tilesets cover. POIs are added by the caller with `frame.toWorld`.
 */
export async function openCityView(
  data: ViewerPackageData,
  scene: Scene,
  camera: Camera,
  renderer: WebGLRenderer,
  language: string,
): Promise<CityView> {
  const tilesets = await CityTilesets.load(data, camera, renderer)
  const projectCentre = data.center ?? defaultCentre
  const frame = new CityFrame(tilesets.geographicCentre() ?? projectCentre)
  tilesets.place(frame, projectCentre)
  for (const group of tilesets.groups()) scene.add(group)
  const bounds = tilesets.bounds()
  const span = bounds.isEmpty() ? 0 : bounds.getSize(new Vector3()).length()
  const sizeMeters = Math.min(maxGroundMeters, Math.max(minGroundMeters, span * 4))
  const ground = data.basemap
    ? await createBasemapGround(data, data.basemap, frame, sizeMeters, language)
    : null
  if (ground) scene.add(ground.mesh)
  if (bounds.isEmpty()) {
    // no tileset: look at the ground around the centre
    const half = minGroundMeters / 4
    bounds.set(new Vector3(-half, 0, -half), new Vector3(half, 50, half))
  }
  return { frame, tilesets, ground, bounds }
}
