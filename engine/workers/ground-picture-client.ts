import * as Comlink from 'comlink'
import type {
  GroundDrawings,
  GroundPicture,
  PictureScale,
  WorldBox,
} from '../../workers/ground-picture/ground-picture-paint'
import { packDrawings, transferablesOf } from '../../workers/ground-picture/packed-drawings'
import type { GroundPictureWorkerApi } from '../../workers/ground-picture/ground-picture.worker'
import { STALE, type Stale } from '../../workers/protocol/latest-wins'
import { createWorkerClient, type WorkerClient, type WorkerEndpoint } from './create-worker-client'

/** Starts the ground-picture worker; the bundler emits it as its own chunk. */
export function createGroundPictureWorker(): WorkerEndpoint {
  return new Worker(
    new URL('../../workers/ground-picture/ground-picture.worker.ts', import.meta.url),
    { type: 'module', name: 'ground-picture' },
  )
}

interface PaintJob {
  drawings: GroundDrawings
  region: WorldBox
  scale: PictureScale
  resolve(picture: GroundPicture | Stale): void
  reject(error: unknown): void
}

/**
 * The city drawings' painter (workers/ground-picture), started on the first paint. One paint
 * runs at a time and only the latest one asked for waits behind it: a view that keeps changing
 * while a paint runs costs one more paint, not one per change; a paint overtaken while it
 * waited answers {@link STALE}.
 */
export class GroundPicturePainter {
  private client: WorkerClient<GroundPictureWorkerApi> | null = null
  private isPainting = false
  private waiting: PaintJob | null = null
  private isDisposed = false

  constructor(private readonly createWorker: () => WorkerEndpoint = createGroundPictureWorker) {}

  paint(
    drawings: GroundDrawings,
    region: WorldBox,
    scale: PictureScale,
  ): Promise<GroundPicture | Stale> {
    return new Promise((resolve, reject) => {
      this.waiting?.resolve(STALE)
      this.waiting = { drawings, region, scale, resolve, reject }
      void this.paintNext()
    })
  }

  /** Stops the worker; a paint under way or waiting answers {@link STALE}. */
  dispose(): void {
    this.isDisposed = true
    this.waiting?.resolve(STALE)
    this.waiting = null
    this.client?.dispose()
    this.client = null
  }

  private async paintNext(): Promise<void> {
    const job = this.waiting
    if (this.isPainting || !job) return
    this.waiting = null
    this.isPainting = true
    try {
      this.client ??= createWorkerClient<GroundPictureWorkerApi>(this.createWorker)
      const { api, failure } = this.client
      // Packed only now: a paint overtaken while it waited never pays for it.
      const packed = packDrawings(job.drawings)
      const picture = await Promise.race([
        api.paint(Comlink.transfer(packed, transferablesOf(packed)), job.region, job.scale),
        failure,
      ])
      job.resolve(this.isDisposed ? STALE : picture)
    } catch (error) {
      if (this.isDisposed) job.resolve(STALE)
      else {
        // A worker that failed is not asked again: the next paint starts a fresh one.
        this.client?.dispose()
        this.client = null
        job.reject(error)
      }
    } finally {
      this.isPainting = false
      if (!this.isDisposed) void this.paintNext()
    }
  }
}
