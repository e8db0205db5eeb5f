/**
 * The in-browser half of the SBM benchmark (bench/sbm/sbm-browser-bench.ts drives it), built by
 * Vite for production with real module workers. Each round loads the same building twice:
 * the anchor (fetch the GLB, GLTFLoader on the main thread, then new MeshBVH() per mesh on the
 * main thread) and ours, the app's path with a free decode worker
 * (engine/building/model-download.ts, `decodeFetchedByWorker`: the decode worker downloads the
 * file itself and decodes while the rest arrives, and hands a copy to the picking worker
 * through the main thread by transfer; the main thread only wraps the transferred buffers into
 * three.js objects). With `comparePosted`, the path before it (the page reads the download and
 * posts each chunk to the decode worker) runs in the same rounds, for an A/B; the other
 * switches run earlier tries. The order rotates by round so load from other processes on the
 * shared machine hits all alike.
 */
import * as Comlink from 'comlink'
import { Box3, DoubleSide, Matrix4, type Mesh, type Object3D, Raycaster, Vector3 } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { acceleratedRaycast, MeshBVH } from 'three-mesh-bvh'
import type { BvhWorkerApi } from '../../../workers/bvh/bvh.worker'
import { STALE } from '../../../workers/protocol/latest-wins'
import type { PickRay } from '../../../workers/bvh/picking-scene'
import type { SbmDecodeWorkerApi } from '../../../workers/sbm/sbm-decode.worker'
import { transferablesOf } from '../../../workers/sbm/decoded-sbm'
import { createSbmObject } from '../../../workers/sbm/sbm-three'
import {
  decodeFetchedByWorker,
  decodeForDrawingAndPicking,
  fetchAndDecodeSbm,
  type ModelSource,
  transferablesOfFetched,
  transferablesOfSource,
} from '../../../engine/building/model-download'
import type { AddSbmOutcome, PickableSbm } from '../../../workers/bvh/bvh-api'
import type { DecodeRequestOptions } from '../../../workers/sbm/sbm-decode.worker'
import { quietRound } from '../../lib/page-rounds'
import {
  type SbmLoadSample,
  type SbmPageConfig,
  type SbmPageResult,
  sbmTraceMarkPrefix,
} from './sbm-bench-protocol'

declare global {
  interface Window {
    runSbmBench(config: SbmPageConfig): Promise<SbmPageResult>
    gc?: () => void
  }
}

type Load = () => Promise<{ extra?: Partial<SbmLoadSample>; release: () => void }>

/** Times one load while watching the main thread (Long Tasks, a 4 ms heartbeat, frames). */
async function watchLoad(load: Load, label = ''): Promise<SbmLoadSample> {
  const longTasksMs: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasksMs.push(entry.duration)
  })
  observer.observe({ type: 'longtask', buffered: false })
  let isWatching = true
  let lastBeatMs = performance.now()
  let longestHeartbeatGapMs = 0
  const beat = () => {
    const nowMs = performance.now()
    longestHeartbeatGapMs = Math.max(longestHeartbeatGapMs, nowMs - lastBeatMs)
    lastBeatMs = nowMs
    if (isWatching) setTimeout(beat, 4)
  }
  setTimeout(beat, 4)
  let frameCount = 0
  let lastFrameMs = performance.now()
  let longestFrameGapMs = 0
  const frame = (nowMs: number) => {
    frameCount++
    longestFrameGapMs = Math.max(longestFrameGapMs, nowMs - lastFrameMs)
    lastFrameMs = nowMs
    if (isWatching) requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)

  // Marks for the driver's Chromium trace: CPU per thread of each load (sbm-browser-bench.ts).
  if (label) performance.mark(`${sbmTraceMarkPrefix}start:${label}`)
  const startMs = performance.now()
  const { extra, release } = await load()
  const loadToPickableMs = performance.now() - startMs
  if (label) performance.mark(`${sbmTraceMarkPrefix}end:${label}`)
  isWatching = false
  await new Promise((resolve) => setTimeout(resolve, 30))
  for (const entry of observer.takeRecords()) longTasksMs.push(entry.duration)
  observer.disconnect()
  release()
  return {
    loadToPickableMs,
    longestLongTaskMs: Math.max(0, ...longTasksMs),
    longTaskCount: longTasksMs.length,
    longestHeartbeatGapMs,
    frameCount,
    longestFrameGapMs,
    ...(extra ?? {}),
  }
}

/** The anchor: what a three.js app does with a plain GLB. */
async function loadAnchor(url: string) {
  const bytes = await (await fetch(url)).arrayBuffer()
  const gltf = await new GLTFLoader().parseAsync(bytes, '')
  const meshes: Mesh[] = []
  gltf.scene.traverse((object: Object3D) => {
    const mesh = object as Mesh
    if (!mesh.isMesh) return
    mesh.geometry.boundsTree = new MeshBVH(mesh.geometry)
    meshes.push(mesh)
  })
  gltf.scene.updateMatrixWorld(true)
  return { scene: gltf.scene, meshes }
}

function seededRandom(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 4294967296
  }
}

/** Rays from around the building toward random points inside its box (the same on both sides). */
function raysAround(box: { min: Vector3; max: Vector3 }, count: number, seed: number): PickRay[] {
  const random = seededRandom(seed)
  const center = box.min.clone().add(box.max).multiplyScalar(0.5)
  const radius = box.max.distanceTo(box.min)
  return Array.from({ length: count }, () => {
    const theta = random() * Math.PI * 2
    const phi = Math.acos(2 * random() - 1)
    const origin = new Vector3(
      center.x + radius * Math.sin(phi) * Math.cos(theta),
      center.y + radius * Math.cos(phi),
      center.z + radius * Math.sin(phi) * Math.sin(theta),
    )
    const target = new Vector3(
      box.min.x + random() * (box.max.x - box.min.x),
      box.min.y + random() * (box.max.y - box.min.y),
      box.min.z + random() * (box.max.z - box.min.z),
    )
    return {
      origin: origin.toArray() as [number, number, number],
      direction: target.sub(origin).normalize().toArray() as [number, number, number],
    }
  })
}

function startWorkers() {
  const decodeWorker = new Worker(
    new URL('../../../workers/sbm/sbm-decode.worker.ts', import.meta.url),
    { type: 'module' },
  )
  // The app's decode pool has one worker per core (2 here): a split load uses both.
  const secondDecodeWorker = new Worker(
    new URL('../../../workers/sbm/sbm-decode.worker.ts', import.meta.url),
    { type: 'module' },
  )
  const pickingWorker = new Worker(new URL('../../../workers/bvh/bvh.worker.ts', import.meta.url), {
    type: 'module',
  })
  return {
    decoder: Comlink.wrap<SbmDecodeWorkerApi>(decodeWorker),
    secondDecoder: Comlink.wrap<SbmDecodeWorkerApi>(secondDecodeWorker),
    picking: Comlink.wrap<BvhWorkerApi>(pickingWorker),
    terminate() {
      decodeWorker.terminate()
      secondDecodeWorker.terminate()
      pickingWorker.terminate()
    },
  }
}

window.runSbmBench = async (config: SbmPageConfig): Promise<SbmPageResult> => {
  const sbmUrl = new URL(config.sbmUrl, location.href).href
  const anchorSamples: SbmLoadSample[] = []
  const ourSamples: SbmLoadSample[] = []
  const postedSamples: SbmLoadSample[] = []
  const pickingWorkerDecodesSamples: SbmLoadSample[] = []
  const splitDecodeSamples: SbmLoadSample[] = []
  const downloadOnlySamples: SbmLoadSample[] = []
  const fetchedSplitDecodeSamples: SbmLoadSample[] = []
  let triangleCount = 0

  // One load by workers started on the clock (module load, wasm init, first-run JIT), for the
  // profile; the timed rounds below use workers started once, like the app's long-lived
  // picking worker and decode pool.
  let workers: ReturnType<typeof startWorkers> | null = null
  const oursCold = await quietRound(
    'cold load ours',
    () => {
      workers = startWorkers()
      return watchLoad(loadOurs, 'cold')
    },
    false,
  )
  workers!.terminate()
  workers = startWorkers()
  const { decoder, picking } = workers

  function loadOurs() {
    return loadOursBy('fetchedByWorker')
  }
  async function loadOursBy(
    path:
      | 'fetchedByWorker'
      | 'fetchedSplitDecode'
      | 'posted'
      | 'postedSplitDecode'
      | 'postedPickingWorkerDecodes',
  ) {
    const { decoder, secondDecoder, picking } = workers!
    const startMs = performance.now()
    // The decode worker downloads the file itself and decodes everything, copying positions and
    // indices for the picking worker (the app's default with a free decode worker,
    // engine/building/model-download.ts). Compared: the page reads the download and posts its
    // chunks to the decode worker (the app's path before, and still when no decode worker is
    // free); the picking worker decodes picking's share (positions, indices, BVHs) while
    // passing the posted bytes on to the decode worker, which decodes what drawing needs. The
    // main thread never copies or decodes geometry.
    // `postedSplitDecode` splits the decode across two decode workers, as the app's pool does
    // when two are free and `splitDecode` is on (model-download.ts; off by default, see
    // bench/README.md, session 21).
    const pickingDecode: { outcome?: Promise<AddSbmOutcome> } = {}
    const startDecode = (source: ModelSource, options: DecodeRequestOptions) =>
      decoder.decode(Comlink.transfer(source, transferablesOfSource(source)), options)
    const startSecondDecode = (source: ModelSource, options: DecodeRequestOptions) =>
      secondDecoder.decode(Comlink.transfer(source, transferablesOfSource(source)), options)
    // The app's pool gives a worker per call while one is free; a split takes both.
    const freeDecoders = path === 'fetchedSplitDecode' ? [secondDecoder, decoder] : [decoder]
    const decoded =
      path === 'fetchedByWorker' || path === 'fetchedSplitDecode'
        ? await decodeFetchedByWorker(
            sbmUrl,
            (source, options) =>
              freeDecoders
                .shift()!
                .decode(Comlink.transfer(source, transferablesOfFetched(source)), options),
            { split: path === 'fetchedSplitDecode' },
          )!
        : await fetchAndDecodeSbm(
            sbmUrl,
            decodeForDrawingAndPicking(
              startDecode,
              path === 'postedPickingWorkerDecodes'
                ? (source) => {
                    pickingDecode.outcome = picking.addSbm(
                      'building',
                      Comlink.transfer(source, transferablesOfSource(source)),
                    )
                  }
                : undefined,
              path === 'postedSplitDecode' ? startSecondDecode : undefined,
            ),
          )
    const decodedAtMs = performance.now() - startMs
    if (!decoded.ok) throw new Error(decoded.error.detail)
    const { answeredAtEpochMs, ...workerTimings } = decoded.value.timings
    const { answeredAtEpochMs: _, ...secondWorkerTimings } = decoded.value.secondTimings ?? {}
    const phasesMs: Record<string, number> = {
      ...Object.fromEntries(
        Object.entries(workerTimings).map(([phase, ms]) => [`decodeWorker.${phase}`, ms]),
      ),
      ...Object.fromEntries(
        Object.entries(secondWorkerTimings).map(([phase, ms]) => [
          `secondDecodeWorker.${phase}`,
          ms,
        ]),
      ),
      // Posting the answer (structured clone of the tables, buffers transferred) to its arrival.
      'decodeWorker→main message':
        performance.timeOrigin + startMs + decodedAtMs - answeredAtEpochMs,
    }
    const pickingCopy = decoded.value.pickingCopy
    const handOffStartMs = performance.now()
    const pickable: Promise<PickableSbm> = pickingCopy
      ? picking.addDecoded('building', Comlink.transfer(pickingCopy, transferablesOf(pickingCopy)))
      : pickingDecode.outcome!.then((outcome) => {
          if (!outcome.ok) throw new Error(outcome.error.detail)
          return outcome.value
        })
    if (pickingCopy) phasesMs['main: post pickingCopy'] = performance.now() - handOffStartMs
    const wrapStartMs = performance.now()
    const model = createSbmObject(decoded.value.model, { imageBitmaps: decoded.value.imageBitmaps })
    phasesMs['main: createSbmObject'] = performance.now() - wrapStartMs
    const added = await pickable
    triangleCount = added.triangleCount
    const pickerReadyAtMs = performance.now() - startMs
    phasesMs['main: wait for picking worker'] =
      performance.now() - wrapStartMs - phasesMs['main: createSbmObject']!
    for (const [phase, ms] of Object.entries(added.timings ?? {}))
      phasesMs[`pickingWorker.${phase}`] = ms
    return {
      extra: { decodedAtMs, pickerReadyAtMs, phasesMs },
      release: () => {
        model.dispose()
        void picking.removeModel('building')
      },
    }
  }
  const loadAnchorCase: Load = async () => {
    const { meshes } = await loadAnchor(config.glbUrl)
    return {
      release: () => {
        for (const mesh of meshes) mesh.geometry.dispose()
      },
    }
  }

  const cases = {
    ours: { load: loadOurs, samples: ourSamples },
    anchor: { load: loadAnchorCase, samples: anchorSamples },
    oursPosted: { load: () => loadOursBy('posted'), samples: postedSamples },
    oursPickingWorkerDecodes: {
      load: () => loadOursBy('postedPickingWorkerDecodes'),
      samples: pickingWorkerDecodesSamples,
    },
    oursSplitDecode: {
      load: () => loadOursBy('postedSplitDecode'),
      samples: splitDecodeSamples,
    },
    oursFetchedSplitDecode: {
      load: () => loadOursBy('fetchedSplitDecode'),
      samples: fetchedSplitDecodeSamples,
    },
    downloadOnly: {
      load: async () => {
        const reader = (await fetch(sbmUrl)).body!.getReader()
        while (!(await reader.read()).done) {
          // every chunk is dropped: only the bytes' arrival is timed
        }
        return { release: () => undefined }
      },
      samples: downloadOnlySamples,
    },
  }
  const caseNames: (keyof typeof cases)[] = [
    'ours',
    'anchor',
    ...(config.comparePosted ? (['oursPosted'] as const) : []),
    ...(config.comparePickingWorkerDecodes ? (['oursPickingWorkerDecodes'] as const) : []),
    ...(config.compareSplitDecode ? (['oursSplitDecode'] as const) : []),
    ...(config.compareFetchedSplitDecode ? (['oursFetchedSplitDecode'] as const) : []),
    ...(config.compareDownloadOnly ? (['downloadOnly'] as const) : []),
  ]
  for (let round = 0; round < config.warmupRounds + config.rounds; round++) {
    const isTimed = round >= config.warmupRounds
    const shift = round % caseNames.length
    const order = [...caseNames.slice(shift), ...caseNames.slice(0, shift)]
    for (const which of order) {
      window.gc?.()
      await new Promise((resolve) => setTimeout(resolve, 200))
      const sample = await quietRound(
        `load round ${round + 1} ${which}`,
        () =>
          watchLoad(
            cases[which].load,
            isTimed ? `${which} ${round + 1 - config.warmupRounds}` : '',
          ),
        isTimed,
      )
      console.log(
        `[sbm-bench] round ${round + 1} ${which}: ${sample.loadToPickableMs.toFixed(0)} ms`,
      )
      if (isTimed) cases[which].samples.push(sample)
    }
  }

  // Picking through the worker on the loaded model: latency of single picks and hover bursts
  // first, while the page holds only our model, then throughput of one big batch against
  // three.js raycasting on the main thread (which needs the anchor loaded).
  const added = await picking.addSbm('building', sbmUrl)
  if (!added.ok) throw new Error(added.error.detail)
  const stats = await decoder.decode(sbmUrl, { purpose: 'picking' })
  if (!stats.ok) throw new Error(stats.error.detail)
  const box = {
    min: new Vector3(Infinity, Infinity, Infinity),
    max: new Vector3(-Infinity, -Infinity, -Infinity),
  }
  for (const instance of stats.value.model.instances) {
    for (const primitiveId of stats.value.model.meshes[instance.meshIndex]!.primitiveIds) {
      const [minX, minY, minZ, maxX, maxY, maxZ] =
        stats.value.model.primitives[primitiveId]!.boundingBox
      const worldBox = new Box3(new Vector3(minX, minY, minZ), new Vector3(maxX, maxY, maxZ))
      worldBox.applyMatrix4(new Matrix4().fromArray(instance.matrixWorld))
      box.min.min(worldBox.min)
      box.max.max(worldBox.max)
    }
  }
  const pickRays = raysAround(box, config.pickCount, config.seed)
  for (const ray of pickRays.slice(0, 50)) await picking.raycast(ray)
  window.gc?.()
  const pickRoundTripMs: number[] = []
  let hits = 0
  await quietRound('pick round trips', async () => {
    for (const ray of pickRays) {
      const startMs = performance.now()
      const hit = await picking.raycast(ray)
      pickRoundTripMs.push(performance.now() - startMs)
      if (hit) hits++
    }
  })
  let stale = 0
  let hoverRequests = 0
  for (let burst = 0; burst < 20; burst++) {
    const answers = await Promise.all(
      pickRays.slice(burst * 10, burst * 10 + 10).map((ray) => picking.hover(ray)),
    )
    hoverRequests += answers.length
    stale += answers.filter((answer) => answer === STALE).length
  }
  const anchor = await loadAnchor(config.glbUrl)
  for (const mesh of anchor.meshes) {
    mesh.raycast = acceleratedRaycast
    mesh.geometry.computeBoundingSphere()
    for (const material of [mesh.material].flat()) material.side = DoubleSide
  }
  const batch = raysAround(box, config.batchRayCount, config.seed + 1)
  const raycaster = new Raycaster()
  raycaster.firstHitOnly = true
  const workerRaysPerSecond: number[] = []
  const mainThreadRaysPerSecond: number[] = []
  for (let round = 0; round < config.rounds; round++) {
    await window.benchRoundStart?.(`raycast batch round ${round + 1}`)
    const workerStartMs = performance.now()
    await picking.raycastBatch(batch)
    workerRaysPerSecond.push(batch.length / ((performance.now() - workerStartMs) / 1000))
    const mainStartMs = performance.now()
    for (const ray of batch) {
      raycaster.ray.origin.fromArray(ray.origin)
      raycaster.ray.direction.fromArray(ray.direction)
      raycaster.intersectObjects(anchor.meshes, false)
    }
    mainThreadRaysPerSecond.push(batch.length / ((performance.now() - mainStartMs) / 1000))
    await window.benchRoundEnd?.()
  }
  await picking.dispose()
  return {
    anchor: anchorSamples,
    ours: ourSamples,
    ...(config.comparePosted ? { oursPosted: postedSamples } : {}),
    ...(config.comparePickingWorkerDecodes
      ? { oursPickingWorkerDecodes: pickingWorkerDecodesSamples }
      : {}),
    ...(config.compareSplitDecode ? { oursSplitDecode: splitDecodeSamples } : {}),
    ...(config.compareFetchedSplitDecode
      ? { oursFetchedSplitDecode: fetchedSplitDecodeSamples }
      : {}),
    ...(config.compareDownloadOnly ? { downloadOnly: downloadOnlySamples } : {}),
    oursCold,
    triangleCount,
    pickRoundTripMs,
    pickHitShare: hits / pickRays.length,
    hoverStaleShare: stale / hoverRequests,
    workerRaysPerSecond,
    mainThreadRaysPerSecond,
  }
}
