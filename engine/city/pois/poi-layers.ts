import type { Layer } from '@deck.gl/core'
import { SimpleMeshLayer } from '@deck.gl/mesh-layers'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { PoiTemplateLook, ScenePoi } from '../../api/poi-commands'
import { type PlainDot, PlainDotLayer } from '../draw/plain-triangle-layers'
import { fitsPlainMeshLayer, type PlainMeshCopy, PlainMeshLayer } from './plain-mesh-layer'
import { type PlainSprite, PlainSpriteLayer } from './plain-sprite-layer'
import type { PoiCluster } from './poi-clusters'
import type { PoiMesh } from './poi-mesh'
import type { SpriteAtlas } from './sprite-atlas'

/** Marker sizes on screen, CSS pixels (picking and label declutter use the same numbers). */
export const poiMarkerLayout = {
  iconSizePixels: 32,
  labelOffsetPixels: 18,
  fontSizePixels: 13,
} as const

/** A POI drawn as an icon: a 2D POI, or a 3D one whose model is loading or failed. */
export interface PoiIcon {
  poi: ScenePoi
  iconUrl: string
}

/** The POIs of one 3D template drawn as instances of its model. */
export interface PoiMeshGroup {
  templateId: string
  mesh: PoiMesh
  pois: ScenePoi[]
}

/** A device status disc behind a marker (issue 17): the status colour, larger for an alarm. */
export interface PoiStatusDisc {
  position: Vector3Tuple
  /** RGBA 0–255. */
  colour: [number, number, number, number]
  radiusPixels: number
}

/** One highlighted marker ring. */
export interface PoiHighlight {
  position: Vector3Tuple
  kind: 'selected' | 'hovered'
}

/** Everything the POI layers draw; each array is kept as long as what it holds is unchanged. */
export interface PoiDrawing {
  statusDiscs: PoiStatusDisc[]
  icons: PlainSprite[]
  meshes: PoiMeshGroup[]
  clusters: PoiCluster[]
  clusterCounts: PlainSprite[]
  labels: PlainSprite[]
  highlights: PoiHighlight[]
  ghostIcons: PlainSprite[]
  ghostMeshes: PoiMeshGroup[]
}

/** An empty drawing. */
export function emptyPoiDrawing(): PoiDrawing {
  return {
    statusDiscs: [],
    icons: [],
    meshes: [],
    clusters: [],
    clusterCounts: [],
    labels: [],
    highlights: [],
    ghostIcons: [],
    ghostMeshes: [],
  }
}

/** How faded a ghost (a copy's preview) is drawn, 0–255. */
export const ghostAlpha = 110
const selectedColor: [number, number, number, number] = [255, 196, 0, 255]
const clusterColor = [30, 110, 220, 230]
const white = [255, 255, 255, 255]
const transparent = [0, 0, 0, 0]
const hoveredColor: [number, number, number, number] = [64, 170, 255, 255]

// Markers and labels stay over buildings and terrain: a POI hidden behind a tile cannot be
// found, picked or edited. 3D models keep the depth test.
const overEverything = { depthCompare: 'always' as const, depthWriteEnabled: false }

function spriteLayer(id: string, sprites: PlainSprite[], atlas: SpriteAtlas): Layer {
  return new PlainSpriteLayer({ id, sprites, atlas, parameters: overEverything })
}

const shapesBySource = new WeakMap<readonly unknown[], unknown[]>()

/**
 * The shapes (dots, model copies) of a drawing's array, made once per array: a plain layer given
 * the same shapes keeps its vertices (the layers are made anew at every label update while the
 * camera moves).
 */
function shapesOf<Item, Shape>(items: readonly Item[], shapeOf: (item: Item) => Shape): Shape[] {
  let shapes = shapesBySource.get(items) as Shape[] | undefined
  if (!shapes) {
    shapes = items.map(shapeOf)
    shapesBySource.set(items, shapes)
  }
  return shapes
}

function meshLayers(prefix: string, groups: PoiMeshGroup[], alpha: number): Layer[] {
  return groups.map((group) => {
    const id = `${prefix}-${group.templateId}`
    if (fitsPlainMeshLayer(group.mesh, group.pois.length)) {
      return new PlainMeshLayer({
        id,
        mesh: group.mesh,
        copies: shapesOf(
          group.pois,
          (poi): PlainMeshCopy => ({
            position: poi.position,
            // deck's yaw turns counter-clockwise seen from above; a heading turns clockwise.
            orientation: [poi.pitch, -poi.heading, poi.roll],
          }),
        ),
        tint: [255, 255, 255, alpha],
      })
    }
    return new SimpleMeshLayer<ScenePoi>({
      id,
      data: group.pois,
      mesh: group.mesh as never,
      getPosition: (poi) => poi.position,
      getOrientation: (poi) => [poi.pitch, -poi.heading, poi.roll],
      getColor: [255, 255, 255, alpha],
      pickable: false,
    })
  })
}

/**
 * 2D POIs (and 3D ones without a drawable model: `modelOf` answers null) as icons; 3D ones
 * grouped by template. POIs without a look are not drawn.
 */
export function splitMarkers(
  pois: readonly ScenePoi[],
  looks: ReadonlyMap<string, PoiTemplateLook>,
  modelOf: (poi: ScenePoi) => PoiMesh | null,
): { icons: PoiIcon[]; meshes: PoiMeshGroup[] } {
  const icons: PoiIcon[] = []
  const groups = new Map<string, PoiMeshGroup>()
  for (const poi of pois) {
    const look = looks.get(poi.templateId)
    if (!look) continue
    const mesh = modelOf(poi)
    if (!mesh) {
      icons.push({ poi, iconUrl: look.iconUrl })
      continue
    }
    let group = groups.get(poi.templateId)
    if (!group) {
      group = { templateId: poi.templateId, mesh, pois: [] }
      groups.set(poi.templateId, group)
    }
    group.pois.push(poi)
  }
  return { icons, meshes: [...groups.values()] }
}

/** The atlases a drawing's sprites point into (`PoiSprites`). */
export interface PoiAtlases {
  icons: SpriteAtlas
  labels: SpriteAtlas
  counts: SpriteAtlas
}

/** The deck layers of a POI drawing, bottom to top. */
export function poiLayers(drawing: PoiDrawing, sprites: PoiAtlases): Layer[] {
  const layers: Layer[] = []
  // Under everything of the POI: the marker (icon or model) stays readable over its disc.
  if (drawing.statusDiscs.length > 0) {
    layers.push(
      new PlainDotLayer({
        id: 'poi-status-discs',
        dots: shapesOf(
          drawing.statusDiscs,
          (disc): PlainDot => ({
            position: disc.position,
            fillColor: disc.colour,
            lineColor: white,
            radiusPixels: disc.radiusPixels,
            lineWidthPixels: 1.5,
          }),
        ),
        parameters: overEverything,
      }),
    )
  }
  layers.push(...meshLayers('poi-mesh', drawing.meshes, 255))
  if (drawing.icons.length > 0) {
    layers.push(spriteLayer('poi-icons', drawing.icons, sprites.icons))
  }
  if (drawing.labels.length > 0) {
    layers.push(spriteLayer('poi-labels', drawing.labels, sprites.labels))
  }
  if (drawing.clusters.length > 0) {
    layers.push(
      new PlainDotLayer({
        id: 'poi-clusters',
        dots: shapesOf(
          drawing.clusters,
          (cluster): PlainDot => ({
            position: cluster.position,
            fillColor: clusterColor,
            lineColor: white,
            radiusPixels: 12 + 4 * Math.log10(cluster.count),
            lineWidthPixels: 2,
          }),
        ),
        parameters: overEverything,
      }),
      spriteLayer('poi-cluster-counts', drawing.clusterCounts, sprites.counts),
    )
  }
  layers.push(...meshLayers('poi-ghost-mesh', drawing.ghostMeshes, ghostAlpha))
  if (drawing.ghostIcons.length > 0) {
    layers.push(spriteLayer('poi-ghost-icons', drawing.ghostIcons, sprites.icons))
  }
  if (drawing.highlights.length > 0) {
    layers.push(
      new PlainDotLayer({
        id: 'poi-highlights',
        dots: shapesOf(
          drawing.highlights,
          (highlight): PlainDot => ({
            position: highlight.position,
            fillColor: transparent,
            lineColor: highlight.kind === 'selected' ? selectedColor : hoveredColor,
            radiusPixels: poiMarkerLayout.iconSizePixels / 2 + 4,
            lineWidthPixels: 3,
          }),
        ),
        parameters: overEverything,
      }),
    )
  }
  return layers
}
