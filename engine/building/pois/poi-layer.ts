import {
  Group,
  Matrix4,
  type PerspectiveCamera,
  type Vector2,
  Vector3,
  type WebGLRenderer,
} from 'three'
import type { SbmDecodeWorkerApi } from '../../../workers/sbm/sbm-decode.worker'
import type { PoiLayerState, PoiTemplateLook, ScenePoi } from '../../api/poi-commands'
import type { PoiStatusEntry, PoiStatusState } from '../../api/poi-status-commands'
import type { WorkerPool } from '../../workers/create-worker-client'
import { ICON_CELL, IconAtlas } from './icon-atlas'
import { LabelAtlas } from './label-atlas'
import { placeLabels } from './poi-labels'
import { MARKER_PIXELS, pushGhostMarkers, pushPoiMarker, WHITE } from './poi-markers'
import { PoiModels, pooledPoiModelReader, type StandIn } from './poi-models'
import { PoiRecords } from './poi-records'
import { DRAWN_AS, drawnAsFor } from './poi-stand-ins'
import { PoiStatuses } from './poi-statuses'
import { ClusterGrid, DeclutterGrid, nearestProjected, projectAll } from './poi-screen'
import { ScreenQuadBatch } from './screen-quad-batch'

/** Cluster marker and cluster cell, CSS pixels. */
const CLUSTER_PIXELS = 34
const CLUSTER_CELL_PIXELS = 56

/** What the POI layer needs from the building scene around it. */
export interface PoiLayerDependencies {
  decodePool: WorkerPool<SbmDecodeWorkerApi>
  /** The canvas size in CSS pixels (projection and picking). */
  cssSize(): { width: number; height: number }
  requestRender(): void
  /** The renderer that draws the layer (new label pixels go up through it); null while none. */
  renderer(): WebGLRenderer | null
  /** Something the snapshot shows changed. */
  onChange(): void
}

/**
 * The POIs of an open building (see `PoiCommands`): 2D markers as screen quads from one icon
 * atlas (one draw call), clustered on a screen grid when they crowd; 3D POIs as instanced
 * template models; labels decluttered on a screen grid; hover and selection rings; copy-preview
 * ghosts; hidden groups and hidden floors respected. Picking and hovering project the shown
 * POIs with the current camera (see poi-screen.ts); each POI's quads are made by poi-markers.ts.
 */
export class BuildingPoiLayer {
  readonly group = new Group()
  private readonly records = new PoiRecords()
  private readonly statuses = new PoiStatuses()
  private readonly looks = new Map<string, PoiTemplateLook>()
  private readonly icons: IconAtlas
  private readonly labels = new LabelAtlas()
  private readonly models: PoiModels
  private readonly markerBatch: ScreenQuadBatch
  private readonly standInBatch: ScreenQuadBatch
  private readonly ghostBatch: ScreenQuadBatch
  private readonly labelBatch: ScreenQuadBatch
  private readonly clusters = new ClusterGrid(CLUSTER_CELL_PIXELS)
  private readonly declutter = new DeclutterGrid()
  private readonly viewProjection = new Matrix4()
  private ghosts: ScenePoi[] = []
  private hiddenGroups = new Set<string>()
  private selected = new Set<string>()
  private hoveredId: string | null = null
  private floorShown: (floorId: string | null) => boolean = () => true
  private floorKey = ''
  /** Per POI: 1 when drawn (look, group and floor allow it). */
  private shown = new Uint8Array(0)
  private isShownStale = true
  /** Per POI, this frame: how it is drawn (`DRAWN_AS`: marker, 3D model or its stand-in). */
  private drawnAs = new Uint8Array(0)
  /** Per POI, this frame: 1 when highlighted (hovered, selected or in alarm). */
  private highlighted = new Uint8Array(0)
  /** Per POI: its template's number in `templateIds` (set with `shown`). */
  private templateOf = new Uint16Array(0)
  /** The templates of the POIs, numbered (set with `shown`). */
  private templateIds: string[] = []
  /**
   * Per template number, this frame: its model's radius in metres when its POIs are drawn as
   * models (0 while not ready), and its stand-in (null: none, its POIs are models). Read once
   * per template a frame, so the loops over the POIs look up no map (three lookups per POI were
   * a tenth of the layer's frame CPU with 10,000 POIs, issue 16 P9).
   */
  private templateRadius = new Float64Array(0)
  private templateStandIns: (StandIn | null)[] = []
  /** The camera's position in the building's frame, this frame. */
  private readonly cameraInBuilding = new Vector3()
  /** Which POIs the instanced models hold (count and a hash of their indices). */
  private modelKey = ''
  private isModelsStale = true
  private screen = new Float32Array(0)
  private drawn = { drawnCount: 0, clusterCount: 0 }
  /** Labels were left out of the last frame to bound its work: draw again to add them. */
  private isLabelBacklog = false

  constructor(private readonly dependencies: PoiLayerDependencies) {
    this.group.name = 'pois'
    this.icons = new IconAtlas(() => dependencies.requestRender())
    this.models = new PoiModels(
      this.group,
      pooledPoiModelReader(dependencies.decodePool),
      () => this.changed(true),
      this.icons,
    )
    this.markerBatch = new ScreenQuadBatch(this.icons.atlas.texture, 'poi-markers', 1000)
    this.standInBatch = new ScreenQuadBatch(this.icons.atlas.texture, 'poi-stand-ins', 0, true)
    this.ghostBatch = new ScreenQuadBatch(this.icons.atlas.texture, 'poi-ghosts', 1001)
    this.labelBatch = new ScreenQuadBatch(this.labels.texture, 'poi-labels', 1002)
    this.group.add(
      this.standInBatch.mesh,
      this.markerBatch.mesh,
      this.ghostBatch.mesh,
      this.labelBatch.mesh,
    )
  }

  /** The snapshot part. */
  state(): PoiLayerState {
    return {
      count: this.records.count,
      drawnCount: this.drawn.drawnCount,
      clusterCount: this.drawn.clusterCount,
      selectedIds: [...this.selected],
      hoveredId: this.hoveredId,
      hiddenGroupIds: [...this.hiddenGroups],
      ghostCount: this.ghosts.length,
      failedTemplateIds: this.models.failedTemplateIds(),
    }
  }

  /** The device statuses' snapshot part. */
  statusState(): PoiStatusState {
    return this.statuses.state()
  }

  /** Sets device statuses (see `PoiStatusCommands`). */
  setStatuses(entries: readonly PoiStatusEntry[], replace: boolean): void {
    if (this.statuses.set(entries, replace)) this.changed(false)
  }

  /** A POI by id. */
  get(id: string): ScenePoi | undefined {
    return this.records.get(id)
  }

  setLooks(looks: readonly PoiTemplateLook[]): void {
    this.looks.clear()
    for (const look of looks) this.looks.set(look.templateId, look)
    this.icons.setIcons(new Map(looks.map((look) => [look.templateId, look.iconUrl])))
    this.models.setModels(
      new Map(
        looks
          .filter((look) => look.kind === '3D' && look.modelUrl)
          .map((look) => [look.templateId, look.modelUrl!]),
      ),
    )
    this.changed(true)
  }

  setPois(pois: readonly ScenePoi[]): void {
    this.records.replace(pois)
    this.forgetMissing()
    this.changed(true)
  }

  upsertPois(pois: readonly ScenePoi[]): void {
    this.records.upsert(pois)
    this.changed(true)
  }

  removePois(ids: readonly string[]): void {
    this.records.remove(ids)
    this.forgetMissing()
    this.changed(true)
  }

  setHiddenGroups(groupIds: readonly string[]): void {
    this.hiddenGroups = new Set(groupIds)
    this.changed(true)
  }

  select(ids: readonly string[]): void {
    this.selected = new Set(ids.filter((id) => this.records.indexOf(id) >= 0))
    this.changed(true)
  }

  setGhosts(pois: readonly ScenePoi[]): void {
    this.ghosts = [...pois]
    this.changed(false)
  }

  /** Follows the building's floor switches (called whenever the scene published). */
  setFloorVisibility(
    floors: readonly { id: string; isShown: boolean }[],
    selected: string | null,
  ): void {
    const key = `${selected}|${floors.map((floor) => `${floor.id}:${floor.isShown ? 1 : 0}`).join(',')}`
    if (key === this.floorKey) return
    this.floorKey = key
    const shown = new Map(floors.map((floor) => [floor.id, floor.isShown]))
    // Like a model on no floor: a POI on none is shown while no single floor is looked into.
    this.floorShown = (floorId) =>
      floorId === null || floorId === undefined ? selected === null : (shown.get(floorId) ?? true)
    this.changed(true)
  }

  /** The shown POI under a canvas point (CSS pixels), nearest to the pointer; null when none. */
  pickAt(camera: PerspectiveCamera, x: number, y: number): string | null {
    this.refreshShown()
    const { width, height } = this.dependencies.cssSize()
    camera.updateMatrixWorld()
    this.projectFromBuilding(camera)
    const count = this.records.count
    this.ensureScreen(count)
    projectAll(
      this.viewProjection,
      this.records.positions,
      this.shown,
      count,
      width,
      height,
      this.screen,
    )
    const pixelsPerMetre = height / (2 * Math.tan((camera.fov * Math.PI) / 360))
    const index = nearestProjected(this.screen, count, x, y, (candidate, w) => {
      const templateId = this.records.pois[candidate]!.templateId
      return this.models.isReady(templateId)
        ? Math.max(12, (this.models.radiusOf(templateId) * pixelsPerMetre) / w)
        : MARKER_PIXELS / 2 + 2
    })
    return index < 0 ? null : this.records.ids[index]!
  }

  /**
   * The matrix from the building's frame (POI positions) to clip space: the group hangs on the
   * placed building, so its placement comes in with the camera's.
   */
  private projectFromBuilding(camera: PerspectiveCamera): void {
    this.group.updateWorldMatrix(true, false)
    this.viewProjection
      .multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
      .multiply(this.group.matrixWorld)
  }

  /** A point of the building's frame (where POIs are kept) in scene coordinates. */
  toScene(position: readonly [number, number, number]): Vector3 {
    this.group.updateWorldMatrix(true, false)
    return new Vector3(position[0], position[1], position[2]).applyMatrix4(this.group.matrixWorld)
  }

  /** Sets the hovered POI; true when it changed. */
  setHovered(id: string | null): boolean {
    if (id === this.hoveredId) return false
    this.hoveredId = id
    this.changed(true)
    return true
  }

  /** Fills the frame's markers, clusters and labels for this camera. */
  beforeRender(camera: PerspectiveCamera, viewportPixels: Vector2): void {
    this.refreshShown()
    const { width, height } = this.dependencies.cssSize()
    const pixelRatio = viewportPixels.x / Math.max(1, width)
    camera.updateMatrixWorld()
    this.projectFromBuilding(camera)
    const count = this.records.count
    this.ensureScreen(count)
    const screen = this.screen
    projectAll(
      this.viewProjection,
      this.records.positions,
      this.shown,
      count,
      width,
      height,
      screen,
    )
    const markers = this.markerBatch
    markers.begin()
    this.clusters.reset(width, height)
    const singles: number[] = []
    if (this.drawnAs.length < count) this.drawnAs = new Uint8Array(this.shown.length)
    if (this.highlighted.length < count) this.highlighted = new Uint8Array(this.shown.length)
    const pixelsPerMetre = height / (2 * Math.tan((camera.fov * Math.PI) / 360))
    const renderer = this.dependencies.renderer()
    if (renderer) this.models.takeStandIns(renderer)
    this.readTemplates()
    const templateOf = this.templateOf
    const templateRadius = this.templateRadius
    const templateStandIns = this.templateStandIns
    const highlighted = this.highlighted
    // with no hover, selection or status, no POI is highlighted: no lookups per POI
    const mayHighlight = this.hoveredId !== null || this.selected.size > 0 || this.statuses.hasAny()
    let modelHash = 0
    let modelCount = 0
    const positions = this.records.positions
    for (let index = 0; index < count; index++) {
      const at = index * 3
      this.drawnAs[index] = DRAWN_AS.marker
      highlighted[index] = 0
      if (screen[at + 2] === 0) continue
      // once per POI a frame, and no closure: this loop runs over every POI in view each frame
      const isHighlighted = mayHighlight && this.isHighlighted(this.records.ids[index]!)
      highlighted[index] = isHighlighted ? 1 : 0
      const template = templateOf[index]!
      const radius = templateRadius[template]!
      const drawnAs =
        radius > 0
          ? drawnAsFor(
              (radius * pixelsPerMetre) / screen[at + 2]!,
              templateStandIns[template] !== null,
              isHighlighted,
            )
          : DRAWN_AS.marker
      this.drawnAs[index] = drawnAs
      if (drawnAs === DRAWN_AS.model) {
        modelHash = (Math.imul(modelHash, 31) + index) | 0
        modelCount++
      }
      if (drawnAs !== DRAWN_AS.marker || isHighlighted) {
        singles.push(index)
        continue
      }
      this.clusters.add(
        index,
        screen[at]!,
        screen[at + 1]!,
        positions[at]!,
        positions[at + 1]!,
        positions[at + 2]!,
      )
    }
    this.updateModels(`${modelCount}:${modelHash}`, count)
    const clusterCells: number[] = []
    for (const cell of this.clusters.used) {
      if (this.clusters.countOf(cell) === 1) singles.push(this.clusters.firstOf(cell))
      else clusterCells.push(cell)
    }
    for (const cell of clusterCells) {
      const [x, y, z] = this.clusters.meanOf(cell)
      markers.push(
        x,
        y,
        z,
        this.icons.pictureOf(ICON_CELL.cluster),
        0,
        0,
        CLUSTER_PIXELS,
        CLUSTER_PIXELS,
        WHITE,
      )
    }
    for (const index of singles) this.pushMarker(index)
    this.pushStandIns(singles, camera, pixelsPerMetre)
    const drawnCount = singles.length + clusterCells.length
    const clusterCount = clusterCells.length
    if (drawnCount !== this.drawn.drawnCount || clusterCount !== this.drawn.clusterCount) {
      this.drawn = { drawnCount, clusterCount }
      // the counts are in the snapshot, which a render alone no longer makes again
      this.dependencies.onChange()
    }
    pushGhostMarkers(this.ghostBatch, this.icons, this.ghosts)
    this.isLabelBacklog = placeLabels({
      batch: this.labelBatch,
      labels: this.labels,
      declutter: this.declutter,
      clusters: this.clusters,
      screen,
      positions,
      pois: this.records.pois,
      singles,
      clusterCells,
      highlighted,
      width,
      height,
      gapPixels: MARKER_PIXELS / 2 + 4,
    })
    if (renderer) this.labels.upload(renderer)
    markers.end(viewportPixels, pixelRatio)
    this.standInBatch.end(viewportPixels, pixelRatio)
    this.ghostBatch.end(viewportPixels, pixelRatio)
    this.labelBatch.end(viewportPixels, pixelRatio)
    if (this.isLabelBacklog) {
      this.isLabelBacklog = false
      this.dependencies.requestRender()
    }
  }

  /** Frees every GPU resource of the layer. */
  dispose(): void {
    this.models.dispose()
    this.markerBatch.dispose()
    this.standInBatch.dispose()
    this.ghostBatch.dispose()
    this.labelBatch.dispose()
    this.icons.dispose()
    this.labels.dispose()
    this.group.removeFromParent()
  }

  private pushMarker(index: number): void {
    const poi = this.records.pois[index]!
    const positions = this.records.positions
    const ring =
      poi.id === this.hoveredId
        ? ICON_CELL.hoveredRing
        : this.selected.has(poi.id)
          ? ICON_CELL.selectedRing
          : -1
    const at: [number, number, number] = [
      positions[index * 3]!,
      positions[index * 3 + 1]!,
      positions[index * 3 + 2]!,
    ]
    pushPoiMarker(this.markerBatch, this.icons, this.statuses, poi, at, {
      ring,
      isModel: this.drawnAs[index] !== DRAWN_AS.marker,
    })
  }

  /**
   * The frame's stand-ins: each a quad of its template's picture over the model's bounding
   * sphere, as big as the sphere is on the screen. Its anchor is the sphere's point nearest the
   * camera (on the line of sight through the centre, so it shows where the centre is): the
   * depth test then hides it behind what would hide the model, not behind the floor it
   * stands on.
   */
  private pushStandIns(
    singles: readonly number[],
    camera: PerspectiveCamera,
    pixelsPerMetre: number,
  ): void {
    const batch = this.standInBatch
    batch.begin()
    const eye = this.cameraInBuilding
      .setFromMatrixPosition(camera.matrixWorld)
      .applyMatrix4(new Matrix4().copy(this.group.matrixWorld).invert())
    const positions = this.records.positions
    for (const index of singles) {
      if (this.drawnAs[index] !== DRAWN_AS.standIn) continue
      const at = index * 3
      const { cell, sphere } = this.templateStandIns[this.templateOf[index]!]!
      const x = positions[at]! + sphere.center.x
      const y = positions[at + 1]! + sphere.center.y
      const z = positions[at + 2]! + sphere.center.z
      const distance = Math.hypot(eye.x - x, eye.y - y, eye.z - z) || 1
      const toward = Math.min(sphere.radius, distance / 2) / distance
      const pixels = (2 * sphere.radius * pixelsPerMetre) / this.screen[at + 2]!
      batch.push(
        x + (eye.x - x) * toward,
        y + (eye.y - y) * toward,
        z + (eye.z - z) * toward,
        this.icons.pictureOf(cell),
        0,
        0,
        pixels,
        pixels,
        WHITE,
      )
    }
  }

  private isHighlighted(id: string): boolean {
    // a POI in alarm is never folded into a cluster: it must stay findable
    return id === this.hoveredId || this.selected.has(id) || this.statuses.isAlarm(id)
  }

  /** This frame's radius and stand-in of each template number (see `templateRadius`). */
  private readTemplates(): void {
    const templates = this.templateIds.length
    if (this.templateRadius.length < templates)
      this.templateRadius = new Float64Array(templates * 2)
    this.templateStandIns.length = templates
    for (let template = 0; template < templates; template++) {
      const templateId = this.templateIds[template]!
      const isReady = this.models.isReady(templateId)
      this.templateRadius[template] = isReady ? this.models.radiusOf(templateId) : 0
      this.templateStandIns[template] = isReady ? this.models.standInOf(templateId) : null
    }
  }

  /** Recomputes which POIs are drawn, and the 3D instances, after a change. */
  private refreshShown(): void {
    if (!this.isShownStale) return
    this.isShownStale = false
    const count = this.records.count
    if (this.shown.length < count) {
      this.shown = new Uint8Array(Math.max(count, 16) * 2)
      this.templateOf = new Uint16Array(this.shown.length)
    }
    const numbers = new Map<string, number>()
    this.templateIds = []
    for (let index = 0; index < count; index++) {
      const poi = this.records.pois[index]!
      let template = numbers.get(poi.templateId)
      if (template === undefined) {
        template = this.templateIds.length
        numbers.set(poi.templateId, template)
        this.templateIds.push(poi.templateId)
      }
      this.templateOf[index] = template
      const isShown =
        this.looks.has(poi.templateId) &&
        !this.hiddenGroups.has(poi.groupId) &&
        this.floorShown(poi.floorId ?? null)
      this.shown[index] = isShown ? 1 : 0
    }
    this.isModelsStale = true
  }

  /** Puts the POIs drawn as models this frame into the instanced meshes, when that set changed. */
  private updateModels(key: string, count: number): void {
    if (key === this.modelKey && !this.isModelsStale) return
    this.modelKey = key
    this.isModelsStale = false
    const byTemplate = new Map<string, ScenePoi[]>()
    for (let index = 0; index < count; index++) {
      if (this.drawnAs[index] !== DRAWN_AS.model) continue
      const poi = this.records.pois[index]!
      const list = byTemplate.get(poi.templateId) ?? []
      if (list.length === 0) byTemplate.set(poi.templateId, list)
      list.push(poi)
    }
    this.models.update(byTemplate, this.selected, this.hoveredId)
  }

  private ensureScreen(count: number): void {
    if (this.screen.length < count * 3) this.screen = new Float32Array(Math.max(count, 16) * 6)
  }

  private forgetMissing(): void {
    for (const id of this.selected) if (this.records.indexOf(id) < 0) this.selected.delete(id)
    if (this.hoveredId !== null && this.records.indexOf(this.hoveredId) < 0) this.hoveredId = null
  }

  private changed(isShownStale: boolean): void {
    if (isShownStale) this.isShownStale = true
    this.dependencies.requestRender()
    this.dependencies.onChange()
  }
}
