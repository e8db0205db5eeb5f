import { afterEach, describe, expect, it } from 'vitest'
import { unzipApi } from '../../workers/unzip/unzip-api'
import { findExtractedFile } from '../../workers/unzip/extracted-archive'
import { meshText, sampleBytes, zipOf } from '../../workers/unzip/zip-test-fixtures'
import type { CommandHandlers } from '../api/commands'
import { EngineError } from '../api/errors'
import type { ArchiveProgressedEvent, CommandFailedEvent } from '../api/events'
import type { EngineSnapshot } from '../api/snapshot'
import { createInProcessWorker, type InProcessWorker } from '../testing/in-process-worker'
import { createManualFrameScheduler } from '../testing/manual-frame-scheduler'
import { createTestEngine } from '../testing/test-engine'
import type { Engine } from './engine'

const engines: Engine[] = []
function startEngine(options: Parameters<typeof createTestEngine>[0] = {}) {
  const engine = createTestEngine(options)
  engines.push(engine)
  return engine
}
afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose()
})

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (error) {
    if (error instanceof EngineError) return error.code
    throw error
  }
  throw new Error('expected the command to fail')
}

describe('Engine', () => {
  const model = sampleBytes(200_000)
  const zip = zipOf({ 'tiles/tileset.json': '{"asset":{"version":"1.1"}}', 'tiles/a.b3dm': model })

  it('says which commands it handles, so the UI can feature-test newer ones', () => {
    const engine = startEngine()
    expect(engine.hasCommand('archive.list')).toBe(true)
    expect(engine.hasCommand('city.noSuchCommand')).toBe(false)
  })

  it('lists and extracts archives on the unzip worker', async () => {
    const engine = startEngine()
    const listing = await engine.run('archive.list', { source: new Blob([zip]) })
    expect(listing.entries.map((entry) => entry.name)).toEqual([
      'tiles/tileset.json',
      'tiles/a.b3dm',
    ])
    const archive = await engine.run('archive.extract', {
      source: zip,
      names: ['tiles/tileset.json'],
    })
    expect(new TextDecoder().decode(findExtractedFile(archive, 'tiles/tileset.json'))).toBe(
      '{"asset":{"version":"1.1"}}',
    )
  })

  it('reports extraction progress as events and as a loading job in the snapshot', async () => {
    // frames run by hand: a small archive may be done within one real frame, and the snapshot
    // is published once per frame
    const frames = createManualFrameScheduler()
    const engine = startEngine({ frameScheduler: frames })
    const progress: ArchiveProgressedEvent[] = []
    const snapshots: EngineSnapshot[] = []
    engine.on('archive.progressed', (event) => {
      progress.push(event)
      frames.runFrame()
    })
    engine.on('snapshot.changed', (snapshot) => snapshots.push(snapshot))
    await engine.run('archive.extract', { source: zip })
    await expect.poll(() => progress.at(-1)?.doneEntries).toBe(2)
    expect(progress.at(-1)!.doneBytes).toBe(progress.at(-1)!.totalBytes)
    expect(new Set(progress.map((event) => event.jobId)).size).toBe(1)
    const withJob = snapshots.find((snapshot) => snapshot.loading.jobs.length === 1)
    expect(withJob?.loading.jobs[0]).toMatchObject({
      jobId: progress[0]!.jobId,
      kind: 'archive.extract',
    })
    frames.runFrame()
    expect(engine.getSnapshot().loading.jobs).toEqual([])
  })

  it('publishes at most one snapshot per frame, with a rising revision and shared unchanged parts', async () => {
    const frames = createManualFrameScheduler()
    const engine = startEngine({ frameScheduler: frames })
    const published: EngineSnapshot[] = []
    engine.on('snapshot.changed', (snapshot) => published.push(snapshot))
    const initial = engine.getSnapshot()
    for (let attempt = 0; attempt < 3; attempt++) {
      await codeOf(engine.run('archive.list', { source: sampleBytes(100) }))
    }
    await codeOf(engine.run('view.probeWebGL'))
    expect(frames.pendingCount()).toBe(1)
    expect(engine.getSnapshot()).toBe(initial)
    frames.runFrame()
    expect(published).toHaveLength(1)
    expect(published[0]).toBe(engine.getSnapshot())
    expect(published[0]).toMatchObject({
      revision: 1,
      lastError: { code: 'view.noCanvas', command: 'view.probeWebGL' },
    })
    expect(published[0]!.loading).toBe(initial.loading)
    expect(frames.runFrame()).toBe(0)
    await codeOf(engine.run('archive.list', { source: sampleBytes(100) }))
    frames.runFrame()
    expect(published.map((snapshot) => snapshot.revision)).toEqual([1, 2])
    expect(published[1]!.frameStats.frameCount).toBe(1)
  })

  it('rejects failures with their code, records them and emits command.failed', async () => {
    const engine = startEngine()
    const failures: CommandFailedEvent[] = []
    engine.on('command.failed', (failure) => failures.push(failure))
    expect(
      await codeOf(engine.run('archive.extract', { source: zipOf({ '../up.txt': 'x' }) })),
    ).toBe('archive.unsafeEntryName')
    expect(failures).toEqual([
      expect.objectContaining({ command: 'archive.extract', code: 'archive.unsafeEntryName' }),
    ])
    await expect.poll(() => engine.getSnapshot().lastError?.code).toBe('archive.unsafeEntryName')
  })

  it('cancels an extraction by job id or by signal, without recording an error', async () => {
    const engine = startEngine()
    const big = zipOf({ 'a.obj': meshText(250_000), 'b.obj': meshText(250_000) })
    let cancelled: Promise<{ wasRunning: boolean }> | undefined
    engine.on('archive.progressed', (event) => {
      cancelled ??= engine.run('job.cancel', { jobId: event.jobId })
    })
    expect(await codeOf(engine.run('archive.extract', { source: big }))).toBe('archive.aborted')
    expect(await cancelled).toEqual({ wasRunning: true })

    const controller = new AbortController()
    const extraction = engine.run('archive.extract', { source: big, signal: controller.signal })
    const unsubscribe = engine.on('archive.progressed', () => controller.abort())
    expect(await codeOf(extraction)).toBe('archive.aborted')
    unsubscribe()
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(engine.getSnapshot().lastError).toBeNull()
    expect(engine.getSnapshot().loading.jobs).toEqual([])
  })

  it('cancels even when the worker is stuck inside one long entry, by replacing the worker', async () => {
    const workers: InProcessWorker[] = []
    const engine = startEngine({
      createUnzipWorker: () => {
        // The real API, except that extraction never yields, like a forged entry inflating.
        const worker = createInProcessWorker({
          ...unzipApi,
          extract: () => new Promise(() => undefined),
        })
        workers.push(worker)
        return worker
      },
    })
    const controller = new AbortController()
    const extraction = engine.run('archive.extract', { source: zip, signal: controller.signal })
    await expect.poll(() => workers.length).toBe(1)
    controller.abort()
    expect(await codeOf(extraction)).toBe('archive.aborted')
    expect(workers[0]!.isTerminated()).toBe(true)
    const listing = await engine.run('archive.list', { source: zip })
    expect(listing.entries).toHaveLength(2)
    expect(workers).toHaveLength(2)
  })

  it('needs a canvas before probing WebGL', async () => {
    const engine = startEngine()
    expect(await codeOf(engine.run('view.probeWebGL'))).toBe('view.noCanvas')
  })

  it('terminates its workers on dispose and refuses commands afterwards', async () => {
    const workers: InProcessWorker[] = []
    const engine = startEngine({
      createUnzipWorker: () => {
        const worker = createInProcessWorker(unzipApi)
        workers.push(worker)
        return worker
      },
    })
    await engine.run('archive.list', { source: zip })
    engine.dispose()
    expect(workers.length).toBeGreaterThan(0)
    expect(workers.every((worker) => worker.isTerminated())).toBe(true)
    expect(await codeOf(engine.run('archive.list', { source: zip }))).toBe('engine.disposed')
  })

  it('does not compile a handler table that misses a command', () => {
    const listOnly = { 'archive.list': async () => ({}) as never }
    // @ts-expect-error: every command of EngineCommands needs a handler
    const handlers: CommandHandlers = listOnly
    expect(Object.keys(handlers)).toEqual(['archive.list'])
  })
})
