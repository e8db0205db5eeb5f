import Supercluster, { type ClusterProperties } from 'supercluster'
import type { ScenePoi } from '../../api/poi-commands'

/** Beyond this map zoom no POI is clustered: every marker is drawn on its own. */
export const poiClusterMaxZoom = 17
/** POIs closer than this on screen (CSS pixels) are drawn as one cluster when zoomed out. */
const clusterRadiusPixels = 48

/** A cluster marker: POIs too close on screen at this zoom to draw apart. */
export interface PoiCluster {
  id: number
  /** [lng°, lat°, 0]: supercluster's weighted centre. */
  position: [number, number, number]
  count: number
  /** The count as drawn ('12', '1.2k'). */
  countText: string
}

/** What is drawn at one zoom level: single POIs and clusters. */
export interface PoiClusterLevel {
  points: ScenePoi[]
  clusters: PoiCluster[]
}

/** [west, south, east, north] in degrees. */
export type LngLatBox = [number, number, number, number]

/**
 * The clustering of the city's POIs (supercluster: a KD-tree per zoom level, built once per POI
 * set); a level is asked for a box (the drawn markers, the view, a pick), which the tree answers
 * without looking at the POIs outside it.
 */
export class PoiClusters {
  private index: Supercluster<ScenePoi> | null = null

  /** Indexes these POIs (the visible ones). */
  build(pois: readonly ScenePoi[]): void {
    if (pois.length === 0) {
      this.index = null
      return
    }
    const features = pois.map((poi) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [poi.position[0], poi.position[1]] },
      properties: poi,
    }))
    this.index = new Supercluster<ScenePoi>({
      radius: clusterRadiusPixels,
      maxZoom: poiClusterMaxZoom,
      // MapLibre zooms count 512-pixel tiles, as supercluster's default extent does.
      extent: 512,
    }).load(features)
  }

  /** The zoom level the map's (fractional) zoom draws with. */
  level(zoom: number): number {
    return Math.max(0, Math.min(poiClusterMaxZoom + 1, Math.floor(zoom)))
  }

  /** Single POIs and clusters of a zoom level inside a box (a pick, the view). */
  within(box: LngLatBox, level: number): PoiClusterLevel {
    return this.split(this.index?.getClusters(box, level) ?? [])
  }

  private split(features: ReturnType<Supercluster<ScenePoi>['getClusters']>): PoiClusterLevel {
    const points: ScenePoi[] = []
    const clusters: PoiCluster[] = []
    for (const feature of features) {
      const properties = feature.properties as Partial<ClusterProperties> | ScenePoi
      if ('cluster' in properties && properties.cluster) {
        const [lng = 0, lat = 0] = feature.geometry.coordinates
        clusters.push({
          id: properties.cluster_id ?? 0,
          position: [lng, lat, 0],
          count: properties.point_count ?? 0,
          countText: String(properties.point_count_abbreviated ?? properties.point_count),
        })
      } else {
        points.push(properties as ScenePoi)
      }
    }
    return { points, clusters }
  }
}
