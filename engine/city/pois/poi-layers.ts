import type { Layer } from '@deck.gl/core'
import { IconLayer, TextLayer } from '@deck.gl/layers'
import { SimpleMeshLayer } from '@deck.gl/mesh-layers'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { PoiTemplateLook, ScenePoi } from '../../api/poi-commands'
import { PlainDotLayer } from '../draw/plain-triangle-layers'
import type { PoiCluster } from './poi-clusters'
import type { PoiMesh } from './poi-mesh'

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
  icons: PoiIcon[]
  meshes: PoiMeshGroup[]
  clusters: PoiCluster[]
  labels: ScenePoi[]
  highlights: PoiHighlight[]
  ghostIcons: PoiIcon[]
  ghostMeshes: PoiMeshGroup[]
}

/** An empty drawing. */
export function emptyPoiDrawing(): PoiDrawing {
  return {
    statusDiscs: [],
    icons: [],
    meshes: [],
    clusters: [],
    labels: [],
    highlights: [],
    ghostIcons: [],
    ghostMeshes: [],
  }
}

const iconPixels = 64
const ghostAlpha = 110
const selectedColor: [number, number, number, number] = [255, 196, 0, 255]
const clusterColor = [30, 110, 220, 230]
const white = [255, 255, 255, 255]
const transparent = [0, 0, 0, 0]
const hoveredColor: [number, number, number, number] = [64, 170, 255, 255]

/** The icon of a marker in deck's auto-packed atlas: one atlas of every template's picture. */
function iconOf(icon: PoiIcon) {
  return { url: icon.iconUrl, id: icon.iconUrl, width: iconPixels, height: iconPixels }
}

// Markers and labels stay over buildings and terrain: a POI hidden behind a tile cannot be
// found, picked or edited. 3D models keep the depth test.
const overEverything = { depthCompare: 'always' as const, depthWriteEnabled: false }

function iconLayer(id: string, data: PoiIcon[], alpha: number): Layer {
  return new IconLayer<PoiIcon>({
    id,
    data,
    getIcon: iconOf,
    getPosition: (icon) => icon.poi.position,
    getSize: poiMarkerLayout.iconSizePixels,
    sizeUnits: 'pixels',
    getColor: [255, 255, 255, alpha],
    pickable: false,
    parameters: overEverything,
  })
}

function meshLayers(prefix: string, groups: PoiMeshGroup[], alpha: number): Layer[] {
  return groups.map(
    (group) =>
      new SimpleMeshLayer<ScenePoi>({
        id: `${prefix}-${group.templateId}`,
        data: group.pois,
        mesh: group.mesh as never,
        getPosition: (poi) => poi.position,
        // deck's yaw turns counter-clockwise seen from above; a heading turns clockwise.
        getOrientation: (poi) => [poi.pitch, -poi.heading, poi.roll],
        getColor: [255, 255, 255, alpha],
        pickable: false,
      }),
  )
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

/** The deck layers of a POI drawing, bottom to top. */
export function poiLayers(drawing: PoiDrawing): Layer[] {
  const layers: Layer[] = []
  // Under everything of the POI: the marker (icon or model) stays readable over its disc.
  if (drawing.statusDiscs.length > 0) {
    layers.push(
      new PlainDotLayer({
        id: 'poi-status-discs',
        dots: drawing.statusDiscs.map((disc) => ({
          position: disc.position,
          fillColor: disc.colour,
          lineColor: white,
          radiusPixels: disc.radiusPixels,
          lineWidthPixels: 1.5,
        })),
        parameters: overEverything,
      }),
    )
  }
  layers.push(...meshLayers('poi-mesh', drawing.meshes, 255))
  if (drawing.icons.length > 0) layers.push(iconLayer('poi-icons', drawing.icons, 255))
  if (drawing.labels.length > 0) {
    layers.push(
      new TextLayer<ScenePoi>({
        id: 'poi-labels',
        data: drawing.labels,
        getPosition: (poi) => poi.position,
        getText: (poi) => poi.label,
        getSize: poiMarkerLayout.fontSizePixels,
        getColor: [33, 37, 41, 255],
        getPixelOffset: [0, poiMarkerLayout.labelOffsetPixels],
        getTextAnchor: 'middle',
        getAlignmentBaseline: 'top',
        // Korean and Chinese names: the atlas is built from the labels' own characters.
        characterSet: 'auto',
        fontSettings: { sdf: true },
        outlineWidth: 3,
        outlineColor: [255, 255, 255, 230],
        pickable: false,
        parameters: overEverything,
      }),
    )
  }
  if (drawing.clusters.length > 0) {
    layers.push(
      new PlainDotLayer({
        id: 'poi-clusters',
        dots: drawing.clusters.map((cluster) => ({
          position: cluster.position,
          fillColor: clusterColor,
          lineColor: white,
          radiusPixels: 12 + 4 * Math.log10(cluster.count),
          lineWidthPixels: 2,
        })),
        parameters: overEverything,
      }),
      new TextLayer<PoiCluster>({
        id: 'poi-cluster-counts',
        data: drawing.clusters,
        getPosition: (cluster) => cluster.position,
        getText: (cluster) => cluster.countText,
        getSize: 12,
        getColor: [255, 255, 255, 255],
        characterSet: '0123456789.km',
        pickable: false,
        parameters: overEverything,
      }),
    )
  }
  layers.push(...meshLayers('poi-ghost-mesh', drawing.ghostMeshes, ghostAlpha))
  if (drawing.ghostIcons.length > 0) {
    layers.push(iconLayer('poi-ghost-icons', drawing.ghostIcons, ghostAlpha))
  }
  if (drawing.highlights.length > 0) {
    layers.push(
      new PlainDotLayer({
        id: 'poi-highlights',
        dots: drawing.highlights.map((highlight) => ({
          position: highlight.position,
          fillColor: transparent,
          lineColor: highlight.kind === 'selected' ? selectedColor : hoveredColor,
          radiusPixels: poiMarkerLayout.iconSizePixels / 2 + 4,
          lineWidthPixels: 3,
        })),
        parameters: overEverything,
      }),
    )
  }
  return layers
}
