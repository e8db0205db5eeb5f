import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { FileSource, PMTiles, TileType } from 'pmtiles'
import { CanvasTexture, Mesh, MeshBasicMaterial, PlaneGeometry, SRGBColorSpace } from 'three'
import { offlineMapColors } from '../../contract/geo'
import { pmtilesColors } from '../city/basemap-style'
import type { CityFrame } from './city-frame'
import {
  loadPackageFile,
  loadPackageText,
  type ViewerBasemap,
  type ViewerPackageData,
} from './package-data'

/** Pixels per side of the ground's texture. */
const texturePixels = 2048
/** Tiles drawn at most: more would mean a zoom too fine for the texture anyway. */
const maxTiles = 64
const earthCircumferenceMeters = 40_075_016.686

/** Maps a geographic point to the texture's pixels. */
type ToCanvas = (lng: number, lat: number) => [number, number]

/** What was drawn under the city, for the status line and tests. */
export interface BasemapGround {
  mesh: Mesh
  kind: ViewerBasemap['kind']
  /** The PMTiles zoom drawn (null for the offline style). */
  zoom: number | null
}

/**
 * The project's basemap drawn on a square of flat ground `sizeMeters` wide around the frame's
 * centre, as MapLibre would draw it online: the PMTiles archive (raster tiles as they are,
 * vector tiles with the neutral PMTiles style of basemap-style.ts) or, without one, the offline
 * style's Natural Earth countries and places (offline-style.ts's colours). Drawn once into a
 * canvas on the main thread: MapLibre's workers cannot start under `file://`.
 */
export async function createBasemapGround(
  data: ViewerPackageData,
  basemap: ViewerBasemap,
  frame: CityFrame,
  sizeMeters: number,
  language: string,
): Promise<BasemapGround> {
  const canvas = document.createElement('canvas')
  canvas.width = canvas.height = texturePixels
  const context = canvas.getContext('2d')!
  const toCanvas: ToCanvas = (lng, lat) => {
    const { east, north } = frame.groundOf(lng, lat)
    return [(east / sizeMeters + 0.5) * texturePixels, (0.5 - north / sizeMeters) * texturePixels]
  }
  const half = sizeMeters / 2
  const southWest = frame.lngLatOf({ east: -half, north: -half })
  const northEast = frame.lngLatOf({ east: half, north: half })
  const area = {
    west: southWest.lng,
    south: southWest.lat,
    east: northEast.lng,
    north: northEast.lat,
  }
  let zoom: number | null = null
  if (basemap.kind === 'pmtiles') {
    zoom = await drawPmtiles(
      context,
      await loadPackageFile(data, basemap.file),
      area,
      sizeMeters,
      frame.centre.lat,
      toCanvas,
    )
  } else {
    const countries = JSON.parse(
      await loadPackageText(data, basemap.countries),
    ) as FeatureCollection
    const places = JSON.parse(await loadPackageText(data, basemap.places)) as FeatureCollection
    drawOfflineStyle(context, countries, places, area, toCanvas, language)
  }
  const texture = new CanvasTexture(canvas)
  texture.colorSpace = SRGBColorSpace
  texture.anisotropy = 4
  const material = new MeshBasicMaterial({
    map: texture,
    // behind whatever stands on the ground at height 0 (tiles, POIs)
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  })
  const mesh = new Mesh(new PlaneGeometry(sizeMeters, sizeMeters).rotateX(-Math.PI / 2), material)
  mesh.renderOrder = -1
  return { mesh, kind: basemap.kind, zoom }
}

interface Area {
  west: number
  south: number
  east: number
  north: number
}

const tileX = (lng: number, zoom: number) => ((lng + 180) / 360) * 2 ** zoom
const tileY = (lat: number, zoom: number) => {
  const radians = (lat * Math.PI) / 180
  return ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * 2 ** zoom
}
const lngOfTile = (x: number, zoom: number) => (x / 2 ** zoom) * 360 - 180
const latOfTile = (y: number, zoom: number) =>
  (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** zoom))) * 180) / Math.PI

/**
 * Draws the archive's tiles over the area at the zoom whose pixels are about the texture's
 * (clamped to the archive's zooms: past its deepest zoom the tiles are stretched, as MapLibre
 * over-zooms them). Answers the zoom drawn.
 */
async function drawPmtiles(
  context: CanvasRenderingContext2D,
  bytes: Uint8Array,
  area: Area,
  sizeMeters: number,
  latitude: number,
  toCanvas: ToCanvas,
): Promise<number> {
  const archive = new PMTiles(new FileSource(new File([bytes as BlobPart], 'basemap.pmtiles')))
  const header = await archive.getHeader()
  const metersPerPixel = sizeMeters / texturePixels
  const ideal = Math.log2(
    (earthCircumferenceMeters * Math.cos((latitude * Math.PI) / 180)) / (256 * metersPerPixel),
  )
  let zoom = Math.min(header.maxZoom, Math.max(header.minZoom, Math.round(ideal)))
  const range = (z: number) => ({
    x0: Math.floor(tileX(area.west, z)),
    x1: Math.floor(tileX(area.east, z)),
    y0: Math.floor(tileY(area.north, z)),
    y1: Math.floor(tileY(area.south, z)),
  })
  let tiles = range(zoom)
  while (
    zoom > header.minZoom &&
    (tiles.x1 - tiles.x0 + 1) * (tiles.y1 - tiles.y0 + 1) > maxTiles
  ) {
    zoom--
    tiles = range(zoom)
  }
  const isVector = header.tileType === TileType.Mvt
  context.fillStyle = pmtilesColors.background
  context.fillRect(0, 0, texturePixels, texturePixels)
  for (let y = tiles.y0; y <= tiles.y1; y++) {
    for (let x = tiles.x0; x <= tiles.x1; x++) {
      const tile = await archive.getZxy(zoom, x, y)
      if (!tile) continue
      const [left, top] = toCanvas(lngOfTile(x, zoom), latOfTile(y, zoom))
      const [right, bottom] = toCanvas(lngOfTile(x + 1, zoom), latOfTile(y + 1, zoom))
      if (isVector) drawVectorTile(context, tile.data, left, top, right - left, bottom - top)
      else {
        const image = await createImageBitmap(new Blob([tile.data]))
        context.drawImage(image, left, top, right - left, bottom - top)
        image.close()
      }
    }
  }
  return zoom
}

/** One vector tile in the neutral PMTiles style: polygons filled, lines stroked, points as dots. */
function drawVectorTile(
  context: CanvasRenderingContext2D,
  bytes: ArrayBuffer,
  left: number,
  top: number,
  width: number,
  height: number,
): void {
  const tile = new VectorTile(new PbfReader(new Uint8Array(bytes)))
  for (const layer of Object.values(tile.layers)) {
    const scaleX = width / layer.extent
    const scaleY = height / layer.extent
    for (let index = 0; index < layer.length; index++) {
      const feature = layer.feature(index)
      const path = new Path2D()
      for (const ring of feature.loadGeometry()) {
        ring.forEach((point, at) => {
          const px = left + point.x * scaleX
          const py = top + point.y * scaleY
          if (feature.type === 1) path.rect(px - 2, py - 2, 4, 4)
          else if (at === 0) path.moveTo(px, py)
          else path.lineTo(px, py)
        })
        if (feature.type === 3) path.closePath()
      }
      if (feature.type === 3) {
        context.fillStyle = pmtilesColors.fill
        context.fill(path, 'evenodd')
        context.strokeStyle = pmtilesColors.line
        context.lineWidth = 1
        context.stroke(path)
      } else if (feature.type === 2) {
        context.strokeStyle = pmtilesColors.line
        context.lineWidth = 1
        context.stroke(path)
      } else if (feature.type === 1) {
        context.fillStyle = pmtilesColors.point
        context.fill(path)
      }
    }
  }
}

interface FeatureCollection {
  features: Array<{
    properties: Record<string, unknown>
    geometry: { type: string; coordinates: unknown }
  }>
}

/** Whether a ring's (or point's) bounding box meets the area. */
function meets(points: number[][], area: Area): boolean {
  let west = Infinity
  let east = -Infinity
  let south = Infinity
  let north = -Infinity
  for (const [lng = 0, lat = 0] of points) {
    west = Math.min(west, lng)
    east = Math.max(east, lng)
    south = Math.min(south, lat)
    north = Math.max(north, lat)
  }
  return west <= area.east && east >= area.west && south <= area.north && north >= area.south
}

/** The offline style (offline-style.ts): water, land, borders, places with their names. */
function drawOfflineStyle(
  context: CanvasRenderingContext2D,
  countries: FeatureCollection,
  places: FeatureCollection,
  area: Area,
  toCanvas: ToCanvas,
  language: string,
): void {
  context.fillStyle = offlineMapColors.water
  context.fillRect(0, 0, texturePixels, texturePixels)
  const land = new Path2D()
  for (const feature of countries.features) {
    const { type, coordinates } = feature.geometry
    const polygons = (
      type === 'Polygon' ? [coordinates] : type === 'MultiPolygon' ? coordinates : []
    ) as number[][][][]
    for (const polygon of polygons) {
      if (!polygon[0] || !meets(polygon[0], area)) continue
      for (const ring of polygon) {
        ring.forEach(([lng = 0, lat = 0], at) => {
          const [x, y] = toCanvas(lng, lat)
          if (at === 0) land.moveTo(x, y)
          else land.lineTo(x, y)
        })
        land.closePath()
      }
    }
  }
  context.fillStyle = offlineMapColors.land
  context.fill(land, 'evenodd')
  context.strokeStyle = offlineMapColors.border
  context.lineWidth = 2
  context.stroke(land)
  const nameKey = language.startsWith('ko')
    ? 'nameKo'
    : language.startsWith('zh')
      ? 'nameZh'
      : 'nameEn'
  context.font = '28px "Noto Sans CJK SC", "Noto Sans CJK KR", "Noto Sans", sans-serif'
  for (const place of places.features) {
    const [lng = 0, lat = 0] = place.geometry.coordinates as number[]
    if (!meets([[lng, lat]], area)) continue
    const [x, y] = toCanvas(lng, lat)
    context.beginPath()
    context.arc(x, y, 8, 0, Math.PI * 2)
    context.fillStyle = offlineMapColors.place
    context.fill()
    context.strokeStyle = offlineMapColors.halo
    context.lineWidth = 2
    context.stroke()
    const name = String(place.properties[nameKey] || place.properties.nameEn || '')
    context.lineWidth = 5
    context.strokeText(name, x + 12, y - 12)
    context.fillStyle = offlineMapColors.label
    context.fillText(name, x + 12, y - 12)
  }
}
