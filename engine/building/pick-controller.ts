import * as Comlink from 'comlink'
import {
  type Group,
  Mesh,
  MeshBasicMaterial,
  type PerspectiveCamera,
  SphereGeometry,
  type Vector2,
  Vector3,
} from 'three'
import type { PickableSbmMesh } from '../../workers/bvh/add-decoded-sbm'
import type { BvhWorkerApi } from '../../workers/bvh/bvh.worker'
import type { PostedModelSource } from '../../workers/sbm/posted-bytes'
import { STALE } from '../../workers/protocol/latest-wins'
import type { PickHit, PickRay } from '../../workers/bvh/picking-scene'
import { type DecodedSbm, transferablesOf } from '../../workers/sbm/decoded-sbm'
import type { BuildingPick } from '../api/building-snapshot'
import { DownloadError } from './fetch-with-progress'
import { transferablesOfSource } from './model-download'
import { metresPerCssPixel } from './building-view'
import {
  createWorkerClient,
  type WorkerClient,
  type WorkerEndpoint,
} from '../workers/create-worker-client'

/** How many hidden or see-through surfaces a pick may pass before it gives up. */
const MAX_PICK_PASSES = 64

/** What the pick controller asks the scene about a hit model. */
export interface PickTarget {
  /** Whether a model may be hit now (shown, and not a see-through shell). */
  isPickable(modelId: string): boolean
  /** The floor a model belongs to. */
  floorOf(modelId: string): string | null
}

/**
 * The one owner of a building scene's pick: the picking worker (which holds every model's BVH),
 * the last pick and its marker. The UI shows the pick from the snapshot and clears it with a
 * command, so the marker and the info box cannot disagree.
 */
export class PickController {
  private readonly picking: WorkerClient<BvhWorkerApi>
  private readonly meshes = new Map<string, { name: string; modelId: string }>()
  private readonly marker: Mesh<SphereGeometry, MeshBasicMaterial>
  private lastPick: BuildingPick | null = null
  private readonly markerInScene = new Vector3()
  private isOwnDecodeClaimed = false

  constructor(
    createBvhWorker: () => WorkerEndpoint,
    parent: Group,
    private readonly target: PickTarget,
  ) {
    this.picking = createWorkerClient<BvhWorkerApi>(createBvhWorker)
    this.marker = new Mesh(
      new SphereGeometry(1, 16, 12),
      new MeshBasicMaterial({ color: 0xff9800, depthTest: false, transparent: true }),
    )
    this.marker.name = 'pick-marker'
    this.marker.renderOrder = 999
    this.marker.visible = false
    parent.add(this.marker)
  }

  /** The recorded pick (null when none or cleared). */
  get current(): BuildingPick | null {
    return this.lastPick
  }

  /**
   * Hands a decoded model's picking copy (meshes and stored BVHs) to the worker, raised by
   * `liftMeters` (the floor's elevation).
   */
  async addModel(modelId: string, copy: DecodedSbm, liftMeters: number): Promise<void> {
    const added = await Promise.race([
      this.picking.api.addDecoded(modelId, Comlink.transfer(copy, transferablesOf(copy)), {
        liftMeters,
      }),
      this.picking.failure,
    ])
    this.nameMeshes(modelId, added.meshes)
  }

  /**
   * Claims the worker's own decode (see {@link addModelFromBytes}) for one model load, one load at
   * a time: that decode puts an otherwise idle core to work beside the decode pool, while the
   * models of a many-file building already keep the cores busy with their decodes, and decoding
   * their positions and indices twice would only cost time. Returns the release, or null while
   * another load holds the claim.
   */
  claimOwnDecode(): (() => void) | null {
    if (this.isOwnDecodeClaimed) return null
    this.isOwnDecodeClaimed = true
    return () => {
      this.isOwnDecodeClaimed = false
    }
  }

  /**
   * Lets the worker decode a model's picking data itself from its bytes as they download, and
   * pass them on to the decode worker (model-download.ts, decodeForDrawingAndPicking). A file
   * the worker refuses rejects as the decode would have: a download failure or an invalid file.
   */
  async addModelFromBytes(
    modelId: string,
    source: PostedModelSource,
    liftMeters: number,
  ): Promise<void> {
    const outcome = await Promise.race([
      this.picking.api.addSbm(modelId, Comlink.transfer(source, transferablesOfSource(source)), {
        liftMeters,
      }),
      this.picking.failure,
    ])
    if (!outcome.ok) {
      throw outcome.error.code === 'sbm.downloadFailed'
        ? new DownloadError(outcome.error.detail)
        : new Error(outcome.error.detail)
    }
    this.nameMeshes(modelId, outcome.value.meshes)
  }

  /** Drops a model from picking (its load failed after the worker had added it). */
  removeModel(modelId: string): void {
    for (const [meshId, mesh] of this.meshes) {
      if (mesh.modelId === modelId) this.meshes.delete(meshId)
    }
    void this.picking.api.removeModel(modelId).catch(() => undefined)
  }

  private nameMeshes(modelId: string, meshes: PickableSbmMesh[]): void {
    for (const mesh of meshes) {
      this.meshes.set(mesh.meshId, { name: mesh.name || `mesh ${mesh.meshIndex}`, modelId })
    }
  }

  /**
   * The shown surface along a ray. Hidden models and a translucent shell are still in the worker
   * (re-adding them on every switch would cost a decode), so a hit on one is skipped by casting
   * again from just beyond it.
   */
  async pick(
    ray: PickRay,
    isHover: boolean,
    isGone: () => boolean,
  ): Promise<BuildingPick | null | typeof STALE> {
    let near = ray.near ?? 0
    for (let pass = 0; pass < MAX_PICK_PASSES; pass++) {
      const request = { ...ray, near }
      const hit: PickHit | null | typeof STALE = await Promise.race([
        isHover && pass === 0 ? this.picking.api.hover(request) : this.picking.api.raycast(request),
        this.picking.failure,
      ])
      if (isGone()) return null
      if (hit === STALE) return STALE
      if (!hit) return null
      const mesh = this.meshes.get(hit.meshId)
      if (mesh && this.target.isPickable(mesh.modelId)) {
        return {
          point: hit.point,
          normal: hit.normal,
          distance: hit.distance,
          meshName: mesh.name,
          modelId: mesh.modelId,
          floorId: this.target.floorOf(mesh.modelId),
        }
      }
      near = hit.distance + Math.max(1e-4, hit.distance * 1e-6)
    }
    return null
  }

  /** Records a pick and marks it; null clears both. */
  record(pick: BuildingPick | null): void {
    this.lastPick = pick
    if (pick) this.marker.position.fromArray(pick.point)
    this.marker.visible = pick !== null
  }

  /** Keeps the marker a few pixels wide whatever the camera distance. */
  beforeRender(camera: PerspectiveCamera, viewportPixels: Vector2): void {
    if (!this.marker.visible) return
    // the marker sits in the building's frame, which the placement may turn and scale
    const frameScale = this.marker.parent?.matrixWorld.getMaxScaleOnAxis() ?? 1
    const distance = camera.position.distanceTo(this.marker.getWorldPosition(this.markerInScene))
    this.marker.scale.setScalar(
      (metresPerCssPixel(camera, distance, viewportPixels) * 6) / frameScale,
    )
  }

  /** Frees the marker and stops the picking worker. */
  dispose(): void {
    this.marker.geometry.dispose()
    this.marker.material.dispose()
    this.marker.removeFromParent()
    this.picking.dispose()
    this.meshes.clear()
  }
}
