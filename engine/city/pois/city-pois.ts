import type { Layer } from '@deck.gl/core'
import type { CityFeaturePick } from '../../api/city-snapshot'
import type {
  PoiLayerState,
  PoiSurfacePoint,
  PoiTemplateLook,
  ScenePoi,
} from '../../api/poi-commands'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { PoiStatusEntry } from '../../api/poi-status-commands'
import type { WorkerEndpoint } from '../../workers/create-worker-client'
import type { CitySceneContext } from '../city-scene-parts'
import { mapViewport } from '../map-viewport'
import { CityPoiStatuses } from './city-poi-statuses'
import { boxContains, drawBoxFor, drawBoxMargin, turnBox } from './draw-box'
import { type LngLatBox, type PoiCluster, PoiClusters } from './poi-clusters'
import { declutterLabels } from './poi-labels'
import type { PlainSprite } from './plain-sprite-layer'
import {
  emptyPoiDrawing,
  ghostAlpha,
  type PoiDrawing,
  type PoiMeshGroup,
  poiLayers,
  poiMarkerLayout,
  splitMarkers,
} from './poi-layers'
import { PoiModels } from './poi-models'
import { pickPoi, surfacePoint } from './poi-picking'
import { screenPointOf } from './poi-screen'
import { PoiSprites } from './poi-sprites'

/** Above this many POIs, an edit waits for a pause before the clusters are rebuilt. */
const rebuildAtOnceBelow = 5_000
const rebuildDelayMs = 400
/** Labels and view counts follow the camera at most this often while it moves. */
const viewUpdateDelayMs = 120
const viewUpdateMaxWaitMs = 400
/** At most this many labels are considered per view (the selection first). */
const maxLabelCandidates = 4_000

/**
 * The POI part of a city scene (issue 16): the POIs the UI handed over, how each template looks,
 * clustering (supercluster) and label declutter, 3D models, hover, selection, ghosts and hidden
 * groups, drawn as deck layers and picked on the CPU from the cluster index.
 */
export class CityPois {
  private readonly pois = new Map<string, ScenePoi>()
  private readonly looks = new Map<string, PoiTemplateLook>()
  private hiddenGroupIds = new Set<string>()
  private selectedIds: string[] = []
  private hoveredId: string | null = null
  private ghosts: ScenePoi[] = []
  private readonly clusters = new PoiClusters()
  /** POIs added or changed since the clusters were built: drawn on their own meanwhile. */
  private readonly liveIds = new Set<string>()
  private isIndexStale = false
  private rebuildTimer: ReturnType<typeof setTimeout> | null = null
  private viewTimer: ReturnType<typeof setTimeout> | null = null
  private viewFirstAskedAtMs = 0
  private readonly models: PoiModels
  private drawing: PoiDrawing = emptyPoiDrawing()
  private level = -1
  /** Bumped when what the markers are made from changes (index, looks, models, live edits). */
  private markerVersion = 0
  private markersKey = ''
  private markers: { icons: PlainSprite[]; meshes: PoiMeshGroup[] } = { icons: [], meshes: [] }
  /** The POIs the markers were made from (their status discs are drawn). */
  private markerPois: ScenePoi[] = []
  private markerClusters: PoiCluster[] = []
  private markerCounts: PlainSprite[] = []
  /** The POIs whose labels are drawn (after declutter). */
  private labelPois: ScenePoi[] = []
  private labelsGeneration = -1
  private readonly sprites = new PoiSprites(() => this.markersChanged())
  /** The box whose markers deck draws (see `redraw`); a new one bumps the version. */
  private drawBox: LngLatBox | null = null
  private drawBoxVersion = 0
  private readonly statuses = new CityPoiStatuses()
  private statusFrame: number | null = null
  private cachedLayers: Layer[] = []
  private state: PoiLayerState
  /** Lowest and highest POI heights, so a pick looks far enough around its point. */
  private heightRange: [number, number] = [0, 0]

  constructor(
    private readonly context: CitySceneContext,
    private readonly pickTileset: (x: number, y: number) => CityFeaturePick | null,
    createDecodeWorker?: () => WorkerEndpoint,
  ) {
    this.models = new PoiModels(() => this.markersChanged(), createDecodeWorker)
    this.state = {
      count: 0,
      drawnCount: 0,
      clusterCount: 0,
      selectedIds: [],
      hoveredId: null,
      hiddenGroupIds: [],
      ghostCount: 0,
      failedTemplateIds: [],
    }
    context.map.on('move', () => this.onCameraMove())
  }

  /** The deck layers of the POIs (the same objects until something drawn changes). */
  layers(): Layer[] {
    return this.cachedLayers
  }

  setLooks(looks: readonly PoiTemplateLook[]): void {
    this.looks.clear()
    for (const look of looks) this.looks.set(look.templateId, look)
    // Which POIs are shown depends on the looks (a POI without one is not drawn).
    this.rebuildIndex()
  }

  setPois(pois: readonly ScenePoi[]): void {
    this.pois.clear()
    for (const poi of pois) this.pois.set(poi.id, poi)
    this.rebuildIndex()
  }

  upsertPois(pois: readonly ScenePoi[]): void {
    for (const poi of pois) {
      this.pois.set(poi.id, poi)
      this.liveIds.add(poi.id)
    }
    this.indexChanged()
  }

  removePois(ids: readonly string[]): void {
    for (const id of ids) {
      this.pois.delete(id)
      this.liveIds.delete(id)
    }
    this.selectedIds = this.selectedIds.filter((id) => this.pois.has(id))
    if (this.hoveredId && !this.pois.has(this.hoveredId)) this.hoveredId = null
    this.indexChanged()
  }

  setHiddenGroups(groupIds: readonly string[]): void {
    this.hiddenGroupIds = new Set(groupIds)
    this.selectedIds = this.selectedIds.filter((id) => this.isShown(this.pois.get(id)))
    this.rebuildIndex()
  }

  select(ids: readonly string[]): void {
    this.selectedIds = [...new Set(ids)].filter((id) => this.pois.has(id))
    this.redraw()
  }

  isSelected(id: string): boolean {
    return this.selectedIds.includes(id)
  }

  /** The POI drawn under a canvas point (CSS pixels), or null; `select` makes it the selection. */
  pickAt(x: number, y: number, select: boolean): { poiId: string } | null {
    const poi = this.pickPoi(x, y)
    if (select) this.select(poi ? [poi.id] : [])
    return poi ? { poiId: poi.id } : null
  }

  hoverAt(x: number, y: number): { poiId: string } | null {
    const poi = this.pickPoi(x, y)
    const hoveredId = poi?.id ?? null
    if (hoveredId !== this.hoveredId) {
      this.hoveredId = hoveredId
      this.redraw()
    }
    return poi ? { poiId: poi.id } : null
  }

  surfacePointAt(x: number, y: number): PoiSurfacePoint | null {
    return surfacePoint(this.context.map, x, y, this.pickTileset)
  }

  setGhosts(ghosts: readonly ScenePoi[]): void {
    this.ghosts = [...ghosts]
    this.redraw()
  }

  /**
   * Sets device statuses (`PoiStatusCommands`). Colour changes redraw the discs once a frame
   * (a live stream brings hundreds a second); a POI in or out of alarm leaves or joins clusters.
   */
  setStatuses(entries: readonly PoiStatusEntry[], replace: boolean): void {
    const moved = this.statuses.set(entries, replace)
    if (moved === null) return
    this.context.publish({ poiStatuses: this.statuses.state() })
    for (const id of moved) if (this.pois.has(id)) this.liveIds.add(id)
    if (moved.length > 0) this.indexChanged()
    else this.statusFrame ??= requestAnimationFrame(() => this.redrawStatuses())
  }

  /** The position of a POI, or null when there is none with that id. */
  positionOf(id: string): Vector3Tuple | null {
    return this.pois.get(id)?.position ?? null
  }

  toScreen(position: Vector3Tuple): { x: number; y: number; isVisible: boolean } {
    return screenPointOf(mapViewport(this.context.map), position)
  }

  dispose(): void {
    if (this.rebuildTimer) clearTimeout(this.rebuildTimer)
    if (this.viewTimer) clearTimeout(this.viewTimer)
    if (this.statusFrame !== null) cancelAnimationFrame(this.statusFrame)
    this.models.dispose()
    this.sprites.dispose()
  }

  private isShown(poi: ScenePoi | undefined): poi is ScenePoi {
    return (
      poi !== undefined && !this.hiddenGroupIds.has(poi.groupId) && this.looks.has(poi.templateId)
    )
  }

  private pickPoi(x: number, y: number): ScenePoi | null {
    const level = this.clusters.level(this.context.map.getZoom())
    return pickPoi({
      viewport: mapViewport(this.context.map),
      x,
      y,
      heightRange: this.heightRange,
      candidatesIn: (box) => {
        const indexed = this.clusters.within(box, level).points
        return [...indexed.filter((poi) => this.isCurrent(poi)), ...this.livePois()]
      },
      topMetersOf: (poi) => this.modelOf(poi)?.topMeters ?? 0,
    })
  }

  /** Whether an indexed POI is still the one in the scene (not changed, removed or hidden). */
  private isCurrent(poi: ScenePoi): boolean {
    return !this.isIndexStale || (this.pois.get(poi.id) === poi && !this.liveIds.has(poi.id))
  }

  /** POIs drawn on their own: changed since the index was built, or in alarm (never clustered). */
  private livePois(): ScenePoi[] {
    const live: ScenePoi[] = []
    const ids = new Set(this.liveIds)
    for (const id of this.statuses.alarmIds()) ids.add(id)
    for (const id of ids) {
      const poi = this.pois.get(id)
      if (this.isShown(poi)) live.push(poi)
    }
    return live
  }

  private readonly modelOf = (poi: ScenePoi) => {
    const look = this.looks.get(poi.templateId)
    if (look?.kind !== '3D' || !look.modelUrl) return null
    const model = this.models.get(look.modelUrl)
    return model.kind === 'ready' ? model.mesh : null
  }

  private markersChanged(): void {
    this.markerVersion++
    this.redraw()
  }

  private indexChanged(): void {
    if (this.pois.size < rebuildAtOnceBelow) {
      this.rebuildIndex()
      return
    }
    this.isIndexStale = true
    this.markersChanged()
    if (this.rebuildTimer) clearTimeout(this.rebuildTimer)
    this.rebuildTimer = setTimeout(() => this.rebuildIndex(), rebuildDelayMs)
  }

  private rebuildIndex(): void {
    if (this.rebuildTimer) clearTimeout(this.rebuildTimer)
    this.rebuildTimer = null
    const shown: ScenePoi[] = []
    let [low, high] = [0, 0]
    for (const poi of this.pois.values()) {
      if (!this.isShown(poi)) continue
      if (!this.statuses.isAlarm(poi.id)) shown.push(poi)
      low = Math.min(low, poi.position[2])
      high = Math.max(high, poi.position[2])
    }
    this.heightRange = [low, high]
    this.clusters.build(shown)
    this.liveIds.clear()
    this.isIndexStale = false
    this.markersChanged()
  }

  private onCameraMove(): void {
    const level = this.clusters.level(this.context.map.getZoom())
    if (level !== this.level) this.redraw()
    // The camera left the box of drawn markers: the new markers go to deck in this move, their
    // labels with the next view update, so one frame does not pay for both (the slow frames of
    // an orbit over 100,000 POIs). The labels drawn meanwhile stay on their own POIs.
    else if (!boxContains(this.drawBox, this.viewBox())) this.redraw(true)
    else this.askViewUpdate()
  }

  /** The map's view as a box in degrees (clamped to the latitudes supercluster indexes). */
  private viewBox(): LngLatBox {
    const bounds = this.context.map.getBounds()
    return [
      bounds.getWest(),
      Math.max(-85, bounds.getSouth()),
      bounds.getEast(),
      Math.min(85, bounds.getNorth()),
    ]
  }

  /** The box that holds the view at every bearing around the map's centre (see draw-box.ts). */
  private turnBox(): LngLatBox | null {
    const map = this.context.map
    const canvas = map.getCanvas()
    const width = canvas.clientWidth
    const height = canvas.clientHeight
    if (width === 0 || height === 0) return null
    const corners = (
      [
        [0, 0],
        [width, 0],
        [0, height],
        [width, height],
      ] as const
    ).map(([x, y]) => {
      const { lng, lat } = map.unproject([x, y])
      return [lng, lat] as const
    })
    if (corners.some(([lng, lat]) => !Number.isFinite(lng) || !Number.isFinite(lat))) return null
    const { lng, lat } = map.getCenter()
    return turnBox([lng, lat], corners, drawBoxMargin)
  }

  /**
   * Rebuilds what is drawn at the current zoom level and gives deck the new layers; with
   * `labelsMayWait`, the labels and view counts follow at the next coalesced view update.
   */
  private redraw(labelsMayWait = false): void {
    if (this.context.isDisposed()) return
    const level = this.clusters.level(this.context.map.getZoom())
    const view = this.viewBox()
    // Only the markers around the view go to deck, not the whole zoom level: a software GPU
    // (SwiftShader) pays for every vertex of a layer, on screen or not — over 100,000 POIs the
    // level's clusters, their counts and icons cost the map ~3× its frame time. The box holds
    // the view at every bearing (`drawBoxFor`): the markers change when the camera leaves it, in
    // the move that leaves it, so nothing pops in late, and turning the map leaves it never.
    if (level !== this.level || !boxContains(this.drawBox, view)) {
      this.level = level
      this.drawBox = drawBoxFor(view, this.turnBox())
      this.drawBoxVersion++
    }
    // Markers are rebuilt only when they change: a hover or a selection redraws the rings alone
    // (at zoom 18, 100,000 icons would otherwise be handed to deck again). An atlas that started
    // over voids the sprites made before.
    if (this.currentMarkersKey() !== this.markersKey) {
      const { points, clusters } = this.clusters.within(this.drawBox!, this.level)
      const drawn = this.isIndexStale ? points.filter((poi) => this.isCurrent(poi)) : points
      this.markerPois = [...drawn, ...this.livePois()]
      const { icons, meshes } = splitMarkers(this.markerPois, this.looks, this.modelOf)
      this.markers = { icons: this.sprites.iconSprites(icons, 255), meshes }
      this.markerClusters = clusters
      this.markerCounts = this.sprites.countSprites(clusters)
      this.markersKey = this.currentMarkersKey()
    }
    const { icons, meshes } = this.markers
    const clusters = this.markerClusters
    const selected = this.selectedIds
      .map((id) => this.pois.get(id))
      .filter((poi) => this.isShown(poi))
    const hovered = this.hoveredId ? this.pois.get(this.hoveredId) : undefined
    const ghosts = splitMarkers(this.ghosts, this.looks, this.modelOf)
    this.drawing = {
      statusDiscs: this.statuses.discsOf(this.markerPois, this.markersKey),
      icons,
      meshes,
      clusters,
      clusterCounts: this.markerCounts,
      labels: this.drawing.labels,
      highlights: [
        ...selected.map((poi) => ({ position: poi.position, kind: 'selected' as const })),
        // A selected POI keeps its selection ring under the pointer.
        ...(hovered && this.isShown(hovered) && !this.selectedIds.includes(hovered.id)
          ? [{ position: hovered.position, kind: 'hovered' as const }]
          : []),
      ],
      ghostIcons: this.sprites.iconSprites(ghosts.icons, ghostAlpha),
      ghostMeshes: ghosts.meshes,
    }
    if (!labelsMayWait) {
      this.updateView()
      return
    }
    this.showLayers()
    this.askViewUpdate()
  }

  /** Gives deck the layers of the current drawing. */
  private showLayers(): void {
    this.cachedLayers = poiLayers(this.drawing, this.sprites)
    this.context.updateLayers()
  }

  private currentMarkersKey(): string {
    return `${this.level}:${this.markerVersion}:${this.drawBoxVersion}:${this.sprites.generations()}`
  }

  /** Only the discs changed: deck gets the layers again, labels and counts stay. */
  private redrawStatuses(): void {
    this.statusFrame = null
    if (this.context.isDisposed()) return
    const statusDiscs = this.statuses.discsOf(this.markerPois, this.markersKey)
    if (statusDiscs === this.drawing.statusDiscs) return
    this.drawing = { ...this.drawing, statusDiscs }
    this.showLayers()
  }

  /** Coalesces label and count updates while the camera moves (at most every 400 ms). */
  private askViewUpdate(): void {
    const nowMs = performance.now()
    if (!this.viewTimer) this.viewFirstAskedAtMs = nowMs
    else clearTimeout(this.viewTimer)
    const waitedMs = nowMs - this.viewFirstAskedAtMs
    this.viewTimer = setTimeout(
      () => this.updateView(),
      Math.max(0, Math.min(viewUpdateDelayMs, viewUpdateMaxWaitMs - waitedMs)),
    )
  }

  /** Declutters the labels of the markers in view, counts what is drawn, publishes. */
  private updateView(): void {
    if (this.viewTimer) clearTimeout(this.viewTimer)
    this.viewTimer = null
    if (this.context.isDisposed()) return
    const viewport = mapViewport(this.context.map)
    const inView = this.clusters.within(this.viewBox(), this.level)
    const points = this.isIndexStale
      ? inView.points.filter((poi) => this.isCurrent(poi))
      : inView.points
    const selected = new Set(this.selectedIds)
    const ordered = [
      ...this.selectedIds.map((id) => this.pois.get(id)).filter((poi) => this.isShown(poi)),
      ...this.livePois().filter((poi) => !selected.has(poi.id)),
      ...points.filter((poi) => !selected.has(poi.id)),
    ].slice(0, maxLabelCandidates)
    const candidates = ordered.map((poi) => {
      const [x = Number.NaN, y = Number.NaN] = viewport.project(poi.position as unknown as number[])
      return { x, y, label: poi.label }
    })
    const kept = declutterLabels(candidates, viewport, poiMarkerLayout)
    const labels = kept.map((index) => ordered[index]!)
    const isSameLabels =
      this.labelsGeneration === this.sprites.labels.generation &&
      labels.length === this.labelPois.length &&
      labels.every((poi, index) => poi === this.labelPois[index])
    if (!isSameLabels) {
      this.labelPois = labels
      this.drawing = { ...this.drawing, labels: this.sprites.labelSprites(labels) }
      this.labelsGeneration = this.sprites.labels.generation
    }
    this.publishState({
      drawnCount: points.length + this.livePois().length + inView.clusters.length,
      clusterCount: inView.clusters.length,
    })
    this.showLayers()
  }

  private publishState(counts: { drawnCount: number; clusterCount: number }): void {
    const next: PoiLayerState = {
      count: this.pois.size,
      ...counts,
      selectedIds: this.selectedIds,
      hoveredId: this.hoveredId,
      hiddenGroupIds: [...this.hiddenGroupIds],
      ghostCount: this.ghosts.length,
      failedTemplateIds: this.models.failedTemplateIds(this.looks.values()),
    }
    if (JSON.stringify(next) === JSON.stringify(this.state)) return
    this.state = next
    this.context.publish({ pois: next })
  }
}
