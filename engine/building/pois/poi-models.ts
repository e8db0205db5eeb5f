import * as Comlink from 'comlink'
import {
  Box3,
  Color,
  Euler,
  type Group,
  Matrix4,
  type Mesh,
  Quaternion,
  Sphere,
  Vector3,
  type WebGLRenderer,
} from 'three'
import type { DecodedSbm } from '../../../workers/sbm/decoded-sbm'
import type { DecodeSbmOutcome, SbmDecodeWorkerApi } from '../../../workers/sbm/sbm-decode.worker'
import { createSbmObject, type SbmThreeModel } from '../../../workers/sbm/sbm-three'
import type { ScenePoi } from '../../api/poi-commands'
import type { WorkerPool } from '../../workers/create-worker-client'
import { createPoiModelDraw, type PoiModelDraw } from './poi-model-draws'
import { keptInSlots } from './poi-slots'
import { takeStandInPicture } from './poi-stand-ins'

const DEGREES = Math.PI / 180
const SELECTED = new Color(1, 0.62, 0.15)
const HOVERED = new Color(1.25, 1.25, 1.25)
const PLAIN = new Color(1, 1, 1)

interface TemplateModel {
  url: string
  state: 'loading' | 'ready' | 'failed'
  three: SbmThreeModel | null
  /** One draw per part of the model (its meshes keep their own materials). */
  parts: PoiModelPart[]
  /** Radius of the model's bounding sphere about the POI's point, metres (picking). */
  radius: number
  /** The POI in each slot of the draws: a POI keeps its slot while it stays drawn as a model. */
  slotIds: string[]
  /** Resolves once the model has failed, or loaded with its textures. */
  settled: Promise<unknown>
  /** The model's bounding sphere in the POI's frame (where its stand-in is drawn, how big). */
  sphere: Sphere
  /** The model and its textures are in: its stand-in picture can be taken. */
  isPictureReady: boolean
  /** The stand-in's cell in the pictures' atlas; null until taken, -1 when there was no room. */
  standInCell: number | null
  /** Its key in the pictures' atlas. */
  pictureKey: string
}

/** Where the 3D templates' stand-in pictures are kept (the layer's icon atlas). */
export interface StandInPictures {
  /** Pixels of one picture, square. */
  readonly pictureSize: number
  putPicture(key: string, picture: ImageData): number | null
  dropPicture(key: string): void
}

/** A template's stand-in: its picture's cell and the model's bounding sphere. */
export interface StandIn {
  cell: number
  sphere: Sphere
}

/** A template's model read and decoded: its SBM and the images already decoded. */
export type PoiModelReader = (
  url: string,
) => Promise<{ model: DecodedSbm; imageBitmaps: (ImageBitmap | null)[] }>

/** The scene's reader: the model fetched from its address and decoded in the SBM decode pool. */
export function pooledPoiModelReader(decodePool: WorkerPool<SbmDecodeWorkerApi>): PoiModelReader {
  return async (url) => {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const bytes = await response.arrayBuffer()
    const outcome = await decodePool.run<DecodeSbmOutcome>((api) =>
      api.decode(Comlink.transfer(bytes, [bytes]), { forPicking: false }),
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    return outcome.value
  }
}

/** A part (mesh) of a template's model and the draw of its POIs. */
interface PoiModelPart {
  source: Mesh
  /** The part's place in the model. */
  local: Matrix4
  draw: PoiModelDraw
}

/**
 * The 3D POIs: each template's SBM model read and decoded once by `readModel` (the scene's
 * decode pool, or the offline viewer's package on the main thread), and
 * every POI of that template drawn as a copy of it (one draw per part of the model, see
 * poi-model-draws.ts), so 10,000 cameras are as many draw calls as the model has parts. A model that is loading or
 * failed draws nothing here; the layer draws those POIs as 2D markers with the template's
 * preview picture meanwhile.
 */
export class PoiModels {
  private readonly templates = new Map<string, TemplateModel>()
  private isDisposed = false
  private pictureCount = 0

  constructor(
    private readonly parent: Group,
    private readonly readModel: PoiModelReader,
    private readonly onChange: () => void,
    /** Where stand-ins are kept; without it (the offline viewer) every POI is its model. */
    private readonly pictures: StandInPictures | null = null,
  ) {}

  /** Loads the models of these templates (template id → SBM address); drops the others. */
  setModels(models: ReadonlyMap<string, string>): void {
    for (const [templateId, entry] of this.templates) {
      if (models.get(templateId) === entry.url) continue
      this.drop(entry)
      this.templates.delete(templateId)
    }
    for (const [templateId, url] of models) {
      if (this.templates.has(templateId)) continue
      const entry: TemplateModel = {
        url,
        state: 'loading',
        three: null,
        parts: [],
        radius: 1,
        slotIds: [],
        settled: Promise.resolve(),
        sphere: new Sphere(),
        isPictureReady: false,
        standInCell: null,
        pictureKey: `stand-in:${this.pictureCount++}`,
      }
      this.templates.set(templateId, entry)
      entry.settled = this.load(entry).then(() => entry.three?.texturesReady)
    }
  }

  /** Resolves once every model asked for has failed, or loaded with its textures. */
  async settled(): Promise<void> {
    await Promise.all([...this.templates.values()].map((entry) => entry.settled))
  }

  /** Whether a template's POIs are drawn as models now. */
  isReady(templateId: string): boolean {
    return this.templates.get(templateId)?.state === 'ready'
  }

  /** Pick radius of a template's model in metres (1 while not loaded). */
  radiusOf(templateId: string): number {
    return this.templates.get(templateId)?.radius ?? 1
  }

  /** A ready template's stand-in, or null while it has none (its POIs are drawn as models). */
  standInOf(templateId: string): StandIn | null {
    const entry = this.templates.get(templateId)
    const cell = entry?.state === 'ready' ? (entry.standInCell ?? -1) : -1
    if (!entry || cell < 0) return null
    return { cell, sphere: entry.sphere }
  }

  /**
   * Takes the stand-in pictures of the templates loaded since the last call (once each, with the
   * renderer that draws them); true when one was added.
   */
  takeStandIns(renderer: WebGLRenderer): boolean {
    const pictures = this.pictures
    if (!pictures) return false
    let isAdded = false
    for (const entry of this.templates.values()) {
      if (entry.state !== 'ready' || !entry.three || !entry.isPictureReady) continue
      if (entry.standInCell !== null) continue
      const picture = takeStandInPicture(
        renderer,
        entry.three.root,
        entry.sphere,
        pictures.pictureSize,
      )
      entry.standInCell = pictures.putPicture(entry.pictureKey, picture) ?? -1
      isAdded ||= entry.standInCell >= 0
    }
    return isAdded
  }

  /** Templates whose model failed to load. */
  failedTemplateIds(): string[] {
    return [...this.templates].filter(([, entry]) => entry.state === 'failed').map(([id]) => id)
  }

  /**
   * Puts the shown POIs of each ready template into its draws, tinted when selected
   * or hovered. Called when the set, the visibility or the highlight changed, not per frame.
   */
  update(
    shownByTemplate: ReadonlyMap<string, ScenePoi[]>,
    selected: ReadonlySet<string>,
    hoveredId: string | null,
  ): void {
    const matrix = new Matrix4()
    const rotation = new Quaternion()
    const euler = new Euler()
    const position = new Vector3()
    const unit = new Vector3(1, 1, 1)
    const instanceMatrix = new Matrix4()
    for (const [templateId, entry] of this.templates) {
      if (entry.state !== 'ready' || !entry.three) continue
      const pois = keptInSlots(entry.slotIds, shownByTemplate.get(templateId) ?? [])
      entry.slotIds = pois.map((poi) => poi.id)
      this.ensureCapacity(entry, pois.length)
      pois.forEach((poi, index) => {
        // Heading turns clockwise seen from above (about −Y in this Y-up scene), then pitch, roll.
        euler.set(poi.pitch * DEGREES, -poi.heading * DEGREES, poi.roll * DEGREES, 'YXZ')
        rotation.setFromEuler(euler)
        matrix.compose(position.fromArray(poi.position), rotation, unit)
        const colour = poi.id === hoveredId ? HOVERED : selected.has(poi.id) ? SELECTED : PLAIN
        for (const part of entry.parts)
          part.draw.setAt(index, instanceMatrix.multiplyMatrices(matrix, part.local), colour)
      })
      for (const part of entry.parts) part.draw.finish(pois.length)
    }
  }

  /** Frees every model's GPU resources. */
  dispose(): void {
    this.isDisposed = true
    for (const entry of this.templates.values()) this.drop(entry)
    this.templates.clear()
  }

  private async load(entry: TemplateModel): Promise<void> {
    try {
      const decoded = await this.readModel(entry.url)
      if (this.isDisposed || this.templates.get(idOf(this.templates, entry)) !== entry) {
        for (const bitmap of decoded.imageBitmaps) bitmap?.close()
        return
      }
      const three = createSbmObject(decoded.model, { imageBitmaps: decoded.imageBitmaps })
      entry.three = three
      const sphere = new Box3().setFromObject(three.root).getBoundingSphere(entry.sphere)
      entry.radius = Math.max(0.25, sphere.center.length() + sphere.radius)
      three.root.traverse((object) => {
        const mesh = object as Mesh
        if (!mesh.isMesh) return
        entry.parts.push({
          source: mesh,
          local: mesh.matrixWorld.clone(),
          draw: this.partDraw(mesh, 16),
        })
      })
      entry.state = 'ready'
      three.texturesReady.then(() => {
        entry.isPictureReady = true
        if (!this.isDisposed) this.onChange()
      })
    } catch {
      if (this.isDisposed) return
      entry.state = 'failed'
    }
    this.onChange()
  }

  private partDraw(source: Mesh, capacity: number): PoiModelDraw {
    const draw = createPoiModelDraw(source, capacity)
    draw.mesh.name = `poi-model:${source.name}`
    this.parent.add(draw.mesh)
    return draw
  }

  /** A draw holds a fixed number of POIs: a bigger one replaces the old. */
  private ensureCapacity(entry: TemplateModel, count: number): void {
    const first = entry.parts[0]?.draw
    if (!first || first.capacity >= count) return
    const capacity = Math.max(count, first.capacity * 2)
    entry.parts = entry.parts.map((part) => {
      part.draw.dispose()
      return { ...part, draw: this.partDraw(part.source, capacity) }
    })
  }

  private drop(entry: TemplateModel): void {
    this.pictures?.dropPicture(entry.pictureKey)
    entry.standInCell = null
    for (const part of entry.parts) part.draw.dispose()
    entry.parts = []
    entry.slotIds = []
    entry.three?.dispose()
    entry.three = null
  }
}

function idOf(templates: Map<string, TemplateModel>, entry: TemplateModel): string {
  for (const [id, candidate] of templates) if (candidate === entry) return id
  return ''
}
