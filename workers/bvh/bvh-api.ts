import { decodeSbm } from '../sbm/decode-sbm'
import type { DecodedSbm } from '../sbm/decoded-sbm'
import { fetchArrivingModel } from '../sbm/arriving-bytes'
import {
  isPostedModelSource,
  type PostedModelSource,
  receivePostedModel,
} from '../sbm/posted-bytes'
import { type SbmErrorData, toSbmErrorData } from '../sbm/sbm-error'
import { type LoadTimings, startLapTimer } from '../sbm/load-timings'
import { addDecodedSbm, type PickableSbmMesh, type PickingPlacement } from './add-decoded-sbm'
import { createLatestWinsGate, type Stale } from '../protocol/latest-wins'
import type { WorkerOutcome } from '../protocol/outcome'
import {
  type PickableInstanceInput,
  type PickableMeshInput,
  type PickHit,
  type PickRay,
  PickingScene,
} from './picking-scene'

export type { PickableSbmMesh }

/** The answer of `addSbm`: the meshes now pickable, or why the file was refused. */
export type AddSbmOutcome = WorkerOutcome<PickableSbm, SbmErrorData>

/** A model added for picking: its meshes and their triangles. */
export interface PickableSbm {
  meshes: PickableSbmMesh[]
  triangleCount: number
  /**
   * ms per phase in this worker, for benchmarks: `attach` (the stored BVHs wrapped and added) and,
   * when it decoded the file itself, `decode` with its parts as `decode.<phase>`.
   */
  timings?: LoadTimings
}

/**
 * What the picking worker exposes: a long-lived holder of the open scene's BVHs (architecture.md
 * §4). It lives as long as the scene and is disposed with it; picks never block the main thread.
 * A factory, apart from `bvh.worker.ts`, so tests can serve a fresh one in-process.
 */
export function createBvhApi() {
  const scene = new PickingScene()
  const hoverGate = createLatestWinsGate()
  return {
    /** Adds one mesh with its stored BVH; the buffers are transferred in, not copied. */
    add(meshId: string, owned: PickableMeshInput | PickableInstanceInput): void {
      scene.add(meshId, owned)
    },

    /**
     * Decodes an SBM for picking only (positions, indices, BVHs), off the main thread, and adds one
     * mesh per placed primitive, with ids `<modelId>#<node>.<primitive>`. The bytes come
     * transferred in, from a URL fetched here, or posted while they download — what the building
     * scene does: this worker decodes picking's share while passing every chunk on to the decode
     * worker (`forwardTo`), which decodes only what drawing needs, in parallel (issue 23.2).
     */
    async addSbm(
      modelId: string,
      source: ArrayBuffer | string | PostedModelSource,
      placement: PickingPlacement = {},
    ): Promise<AddSbmOutcome> {
      try {
        const timer = startLapTimer()
        const bytes =
          typeof source === 'string'
            ? await fetchArrivingModel(source)
            : isPostedModelSource(source)
              ? receivePostedModel(source)
              : new Uint8Array(source)
        const decoded = await decodeSbm(bytes, { purpose: 'picking' })
        timer.lap('decode')
        for (const [phase, ms] of Object.entries(decoded.timings)) {
          timer.timings[`decode.${phase}`] = ms
        }
        const added = addDecodedSbm(scene, modelId, decoded, placement)
        timer.lap('attach')
        return { ok: true, value: { ...added, timings: timer.timings } }
      } catch (error) {
        return { ok: false, error: toSbmErrorData(error) }
      }
    },

    /**
     * Adds a model the decode worker already decoded (its `pickingCopy`, transferred in through
     * the main thread without a copy), so one fetch and one decode serve rendering and picking.
     */
    addDecoded(
      modelId: string,
      ownedDecoded: DecodedSbm,
      placement: PickingPlacement = {},
    ): PickableSbm {
      const timer = startLapTimer()
      const added = addDecodedSbm(scene, modelId, ownedDecoded, placement)
      timer.lap('attach')
      return { ...added, timings: timer.timings }
    },

    /** Removes one mesh. */
    remove(meshId: string): boolean {
      return scene.remove(meshId)
    },

    /** Removes every mesh of a model added with `addSbm`. */
    removeModel(modelId: string): number {
      return scene.removeByPrefix(`${modelId}#`)
    },

    /** The closest hit (clicks, POI placement): always answered. */
    raycast(ray: PickRay): PickHit | null {
      return scene.raycast(ray)
    },

    /** Many rays in one message (sampling, visibility checks, benchmarks); answers in ray order. */
    raycastBatch(rays: PickRay[]): (PickHit | null)[] {
      return rays.map((ray) => scene.raycast(ray))
    },

    /** Hover picking: answered only if no newer hover request is already waiting, else 'stale'. */
    hover(ray: PickRay): Promise<PickHit | null | Stale> {
      return hoverGate(() => scene.raycast(ray))
    },

    /** Counts, for the engine's snapshot and tests. */
    stats(): { meshCount: number; triangleCount: number } {
      return { meshCount: scene.meshCount, triangleCount: scene.triangleCount }
    },

    /** Drops every BVH; the client terminates the worker right after. */
    dispose(): void {
      scene.dispose()
    },
  }
}
