import type { UnzipWorkerApi } from '../../workers/unzip/unzip.worker'
import { createArchiveHandlers } from '../archive/archive-commands'
import { type BuildingEngineOptions, createBuildingHandlers } from '../building/building-handlers'
import { createCityHandlers } from '../city/city-handlers'
import type {
  CommandArgs,
  CommandArgsTuple,
  CommandHandlers,
  CommandName,
  CommandResult,
} from '../api/commands'
import { EngineError, toEngineError } from '../api/errors'
import type { EngineEvents } from '../api/events'
import type { JobId } from '../api/ids'
import { createInitialSnapshot, type EngineSnapshot, type LoadingJob } from '../api/snapshot'
import { createViewHandlers } from '../view/webgl-probe'
import {
  createWorkerPool,
  type WorkerEndpoint,
  type WorkerPool,
} from '../workers/create-worker-client'
import { createUnzipService, createUnzipWorker } from '../workers/unzip-client'
import type { EngineContext, EngineState, JobHandle } from './engine-context'
import { EventEmitter } from './event-emitter'
import { createAnimationFrameScheduler, type FrameScheduler } from './frame-scheduler'

/** How to build an engine; everything is optional. */
export interface EngineOptions {
  /** The canvas the engine draws into; can also be given later with `view.attachCanvas`. */
  canvas?: HTMLCanvasElement | OffscreenCanvas
  /** Starts an unzip worker; tests pass an in-process one (engine/testing). */
  createUnzipWorker?: () => WorkerEndpoint
  /** Unzip workers that may run at once, also for one big extraction (default: cores, ≤ 4). */
  maxUnzipWorkers?: number
  /**
   * Inflate large zip entries with the platform's zlib where it has one (default true); false
   * keeps fflate for every entry, the path before session 13, for benchmarks' A/B runs.
   */
  inflateNatively?: boolean
  frameScheduler?: FrameScheduler
  /** Worker factories and limits of the building scene; tests pass counting factories. */
  building?: BuildingEngineOptions
}

/**
 * The scene engine. The UI talks to it only through `run(name, args)`, listens with `on`, and
 * renders `getSnapshot()`; nothing else of the engine (three.js objects, workers) leaks out.
 */
export class Engine {
  private readonly events = new EventEmitter<EngineEvents>()
  private readonly handlers: CommandHandlers
  private readonly unzipPool: WorkerPool<UnzipWorkerApi>
  private readonly frameScheduler: FrameScheduler
  private readonly jobs = new Map<JobId, { controller: AbortController; job: LoadingJob }>()
  private state: EngineState
  private snapshot: EngineSnapshot = createInitialSnapshot()
  private frameStats = this.snapshot.frameStats
  private cancelFrame: (() => void) | undefined
  private jobSequence = 0
  private isDisposed = false
  private readonly disposeScenes: () => void

  constructor(options: EngineOptions = {}) {
    const { revision: _revision, frameStats: _frameStats, ...state } = this.snapshot
    this.state = state
    this.frameScheduler = options.frameScheduler ?? createAnimationFrameScheduler()
    const cores = typeof navigator === 'undefined' ? 2 : (navigator.hardwareConcurrency ?? 2)
    // Unzipping is CPU-bound and the main thread only waits meanwhile, so every core may help.
    const maxUnzipWorkers = options.maxUnzipWorkers ?? Math.min(4, Math.max(1, cores))
    this.unzipPool = createWorkerPool<UnzipWorkerApi>(
      options.createUnzipWorker ?? createUnzipWorker,
      { maxWorkers: maxUnzipWorkers },
    )
    let canvas = options.canvas ?? null
    const canvasListeners = new Set<() => void>()
    const context: EngineContext = {
      getState: () => this.state,
      updateState: (patch) => this.updateState(patch),
      events: this.events,
      startJob: (kind, callerSignal) => this.startJob(kind, callerSignal),
      cancelJob: (jobId) => this.cancelJob(jobId),
      unzip: createUnzipService(this.unzipPool, {
        maxParallelJobs: maxUnzipWorkers,
        inflateNatively: options.inflateNatively,
      }),
      getCanvas: () => canvas,
      onCanvasChanged: (listener) => {
        canvasListeners.add(listener)
        return () => canvasListeners.delete(listener)
      },
    }
    const viewHandlers = createViewHandlers(context, options.canvas)
    const { dispose: disposeBuilding, ...buildingHandlers } = createBuildingHandlers(
      context,
      options.building,
    )
    const { dispose: disposeCity, ...cityHandlers } = createCityHandlers(context)
    this.disposeScenes = () => {
      disposeBuilding()
      disposeCity()
    }
    this.handlers = {
      ...createArchiveHandlers(context),
      ...buildingHandlers,
      ...cityHandlers,
      ...viewHandlers,
      'view.attachCanvas': async (args) => {
        await viewHandlers['view.attachCanvas'](args)
        canvas = args.canvas
        for (const listener of [...canvasListeners]) listener()
      },
      'job.cancel': async ({ jobId }) => ({ wasRunning: this.cancelJob(jobId) }),
    }
  }

  /**
   * Runs a command. A failure rejects with an EngineError, is recorded in `snapshot.lastError`
   * (cancellations excepted) and emitted as `command.failed`.
   */
  async run<Name extends CommandName>(
    name: Name,
    ...[args]: CommandArgsTuple<Name>
  ): Promise<CommandResult<Name>> {
    if (this.isDisposed) throw new EngineError('engine.disposed', 'The engine was disposed.')
    const handler = this.handlers[name] as (args: CommandArgs<Name>) => Promise<CommandResult<Name>>
    try {
      return await handler(args as CommandArgs<Name>)
    } catch (error) {
      const engineError = toEngineError(error)
      if (engineError.code !== 'archive.aborted' && !this.isDisposed) {
        const failure = { command: name, code: engineError.code, message: engineError.message }
        this.updateState({ lastError: failure })
        this.events.emit('command.failed', failure)
      }
      throw engineError
    }
  }

  /**
   * Whether this engine has a handler for `name`. Lets the UI feature-test commands that are
   * declared before every scene handles them (a missing handler would fail as engine.internal).
   */
  hasCommand(name: string): boolean {
    return typeof (this.handlers as Partial<Record<string, unknown>>)[name] === 'function'
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<Name extends keyof EngineEvents>(
    name: Name,
    listener: (payload: EngineEvents[Name]) => void,
  ): () => void {
    return this.events.on(name, listener)
  }

  /** The last published snapshot; the same object until the next frame that changed something. */
  getSnapshot(): EngineSnapshot {
    return this.snapshot
  }

  /** Cancels running jobs, terminates workers, stops the frame loop and drops listeners. */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    for (const { controller } of this.jobs.values()) controller.abort()
    this.jobs.clear()
    this.cancelFrame?.()
    this.cancelFrame = undefined
    this.unzipPool.dispose()
    this.disposeScenes()
    this.events.clear()
  }

  private updateState(patch: Partial<EngineState>): void {
    if (this.isDisposed) return
    this.state = { ...this.state, ...patch }
    this.cancelFrame ??= this.frameScheduler.requestFrame(() => this.runFrame())
  }

  /**
   * One frame of engine work. Publishing the snapshot here, not on every change, bounds React
   * updates to one per frame however chatty the workers are.
   */
  private runFrame(): void {
    this.cancelFrame = undefined
    const startMs = performance.now()
    this.snapshot = {
      ...this.state,
      revision: this.snapshot.revision + 1,
      frameStats: this.frameStats,
    }
    this.events.emit('snapshot.changed', this.snapshot)
    // Measured after the work, so the stats describe the previous frame in the next snapshot.
    const workMs = performance.now() - startMs
    this.frameStats = {
      frameCount: this.frameStats.frameCount + 1,
      lastFrameWorkMs: workMs,
      longestFrameWorkMs: Math.max(this.frameStats.longestFrameWorkMs, workMs),
    }
  }

  private startJob(kind: LoadingJob['kind'], callerSignal: AbortSignal | undefined): JobHandle {
    const jobId = `job-${++this.jobSequence}` as JobId
    const controller = new AbortController()
    const signal = callerSignal
      ? AbortSignal.any([controller.signal, callerSignal])
      : controller.signal
    this.jobs.set(jobId, { controller, job: { jobId, kind, doneBytes: 0, totalBytes: 0 } })
    this.publishJobs()
    return {
      jobId,
      signal,
      reportProgress: (doneBytes, totalBytes) => {
        const entry = this.jobs.get(jobId)
        if (!entry) return
        entry.job = { ...entry.job, doneBytes, totalBytes }
        this.publishJobs()
      },
      finish: () => {
        if (this.jobs.delete(jobId)) this.publishJobs()
      },
    }
  }

  private cancelJob(jobId: JobId): boolean {
    const entry = this.jobs.get(jobId)
    if (!entry) return false
    entry.controller.abort()
    return true
  }

  private publishJobs(): void {
    const jobs = [...this.jobs.values()].map((entry) => entry.job)
    this.updateState({
      loading: {
        jobs,
        doneBytes: jobs.reduce((sum, job) => sum + job.doneBytes, 0),
        totalBytes: jobs.reduce((sum, job) => sum + job.totalBytes, 0),
      },
    })
  }
}
