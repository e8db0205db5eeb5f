import { afterEach, describe, expect, it } from 'vitest'
import type {
  GroundDrawings,
  GroundPicture,
  WorldBox,
} from '../../workers/ground-picture/ground-picture-paint'
import type { PackedDrawings } from '../../workers/ground-picture/packed-drawings'
import { STALE } from '../../workers/protocol/latest-wins'
import { EngineError } from '../api/errors'
import { createInProcessWorker, type InProcessWorker } from '../testing/in-process-worker'
import { GroundPicturePainter } from './ground-picture-client'

/**
 * The city drawings' painter on its worker: a view that keeps changing while a picture is
 * painted costs one more paint, not one per change, and a failed worker is replaced.
 */

const started: InProcessWorker[] = []
/** Regions the workers were asked to paint, in order. */
const painted: number[] = []
/** Lets the paint under way finish. */
let finishPaint: () => void = () => undefined

function startWorker() {
  const worker = createInProcessWorker({
    async paint(_: PackedDrawings, region: WorldBox): Promise<GroundPicture> {
      painted.push(region[0])
      await new Promise<void>((resolve) => {
        finishPaint = resolve
      })
      return {
        bounds: [region[0], 0, 0, 0],
        width: 1,
        height: 1,
        pixels: new Uint8Array(4),
        drawnSpans: new Uint32Array(0),
      }
    },
  })
  started.push(worker)
  return worker
}

const nothing: GroundDrawings = { fills: [], lines: [], dots: [] }
const scale = { texel: 1e-7, pixel: 2e-7 }
const regionAt = (x: number): WorldBox => [x, 0.4, x + 0.001, 0.401]

/** Waits until the worker has started `count` paints (messages cross a channel). */
async function untilPainting(count: number) {
  while (painted.length < count) await new Promise((resolve) => setTimeout(resolve, 1))
}

afterEach(() => {
  for (const worker of started.splice(0)) worker.terminate()
  painted.length = 0
})

describe('GroundPicturePainter', () => {
  it('paints one picture at a time, and of those waiting only the latest', async () => {
    const painter = new GroundPicturePainter(startWorker)
    const first = painter.paint(nothing, regionAt(0.1), scale)
    await untilPainting(1)
    const overtaken = painter.paint(nothing, regionAt(0.2), scale)
    const latest = painter.paint(nothing, regionAt(0.3), scale)
    expect(await overtaken).toBe(STALE)
    finishPaint()
    expect(await first).toMatchObject({ bounds: [0.1, 0, 0, 0] })
    await untilPainting(2)
    finishPaint()
    expect(await latest).toMatchObject({ bounds: [0.3, 0, 0, 0] })
    expect(painted).toEqual([0.1, 0.3])
    expect(started).toHaveLength(1)
    painter.dispose()
    expect(started[0]!.isTerminated()).toBe(true)
  })

  it('answers a failed paint with the worker failure and paints the next on a fresh worker', async () => {
    const painter = new GroundPicturePainter(startWorker)
    const failed = painter.paint(nothing, regionAt(0.1), scale)
    await untilPainting(1)
    started[0]!.simulateCrash()
    const error = await failed.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(EngineError)
    expect((error as EngineError).code).toBe('engine.workerFailed')
    expect(started[0]!.isTerminated()).toBe(true)

    const next = painter.paint(nothing, regionAt(0.2), scale)
    await untilPainting(2)
    finishPaint()
    expect(await next).toMatchObject({ bounds: [0.2, 0, 0, 0] })
    expect(started).toHaveLength(2)
    painter.dispose()
  })

  it('answers stale to the paints under way and waiting when disposed', async () => {
    const painter = new GroundPicturePainter(startWorker)
    const running = painter.paint(nothing, regionAt(0.1), scale)
    await untilPainting(1)
    const waiting = painter.paint(nothing, regionAt(0.2), scale)
    painter.dispose()
    expect(await waiting).toBe(STALE)
    expect(await running).toBe(STALE)
    expect(painted).toEqual([0.1])
  })
})
