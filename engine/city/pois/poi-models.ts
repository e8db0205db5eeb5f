import type { PoiTemplateLook } from '../../api/poi-commands'
import type { SbmDecodeWorkerApi } from '../../workers/building-workers'
import { createSbmDecodeWorker } from '../../workers/building-workers'
import {
  createWorkerClient,
  type WorkerClient,
  type WorkerEndpoint,
} from '../../workers/create-worker-client'
import { type PoiMesh, poiMeshOfSbm } from './poi-mesh'

/** A model's state: loading, drawn with its mesh, or failed (its POIs show the picture). */
export type PoiModelState =
  | { kind: 'loading' }
  | { kind: 'ready'; mesh: PoiMesh }
  | { kind: 'failed' }

/**
 * The SBM models of 3D templates, decoded in one SBM decode worker (the same decode path as the
 * building's models) and flattened into one mesh each. Keyed by address, so templates that share
 * a model decode it once. `onChange` is called when a model finishes or fails.
 */
export class PoiModels {
  private readonly models = new Map<string, PoiModelState>()
  private worker: WorkerClient<SbmDecodeWorkerApi> | null = null
  private isDisposed = false

  constructor(
    private readonly onChange: () => void,
    private readonly createWorker: () => WorkerEndpoint = createSbmDecodeWorker,
  ) {}

  /** The model at this address, starting its load on first ask. */
  get(modelUrl: string): PoiModelState {
    let state = this.models.get(modelUrl)
    if (!state) {
      state = { kind: 'loading' }
      this.models.set(modelUrl, state)
      void this.load(modelUrl)
    }
    return state
  }

  /** The templates among `looks` whose 3D model failed (their POIs show the picture). */
  failedTemplateIds(looks: Iterable<PoiTemplateLook>): string[] {
    const failed: string[] = []
    for (const look of looks) {
      if (look.kind === '3D' && look.modelUrl && this.get(look.modelUrl).kind === 'failed') {
        failed.push(look.templateId)
      }
    }
    return failed
  }

  /** Stops the worker; late answers are dropped. */
  dispose(): void {
    this.isDisposed = true
    this.worker?.dispose()
    this.worker = null
  }

  private async load(modelUrl: string): Promise<void> {
    let next: PoiModelState
    try {
      this.worker ??= createWorkerClient<SbmDecodeWorkerApi>(this.createWorker)
      // The worker's own base address is its script's: it gets an absolute one.
      const address = new URL(modelUrl, globalThis.location?.href).href
      const outcome = await Promise.race([
        this.worker.api.decode(address, { purpose: 'render' }),
        this.worker.failure,
      ])
      for (const bitmap of outcome.ok ? outcome.value.imageBitmaps : []) bitmap?.close()
      next = outcome.ok
        ? { kind: 'ready', mesh: poiMeshOfSbm(outcome.value.model) }
        : { kind: 'failed' }
      if (next.kind === 'ready' && next.mesh.indices.value.length === 0) next = { kind: 'failed' }
    } catch {
      next = { kind: 'failed' }
    }
    if (this.isDisposed) return
    this.models.set(modelUrl, next)
    this.onChange()
  }
}
