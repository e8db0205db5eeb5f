/**
 * SBM in Node, each figure side by side with its anchor in the same run:
 * (a) file size: SBM ÷ the source GLB;
 * (b) BVH bytes per triangle: the stored, deserialized BVH ÷ a BVH three-mesh-bvh builds itself;
 * (c) decode to pickable: decodeSbm + three.js objects with stored BVHs ÷ GLTFLoader + new MeshBVH;
 * (d) raycast throughput: our PickingScene (the picking worker's module) ÷ three.js Raycaster
 *     with three-mesh-bvh's accelerated raycast over the same meshes;
 * (e) peak memory during load ÷ the loaded geometry's bytes, ours and the anchor, each load in a
 *     fresh process (see sbm-load-memory.ts for how and why RSS).
 * Standalone: `npx tsx bench/sbm/sbm-node-bench.ts`; writes bench/results/sbm-node.json.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Box3, type BufferGeometry, DoubleSide, Raycaster, Vector3 } from 'three'
import { acceleratedRaycast, MeshBVH } from 'three-mesh-bvh'
import { addDecodedSbm } from '../../workers/bvh/add-decoded-sbm'
import { type PickRay, PickingScene } from '../../workers/bvh/picking-scene'
import { BVH_CHUNK_TYPE } from '../../workers/sbm/bvh-chunk'
import { parseGlb } from '../../workers/sbm/glb'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from '../lib/stats'
import { benchBuildingRecipe, type BuildingRecipe } from './generate-building'
import { prepareBuilding } from './prepare-building'
import { type LoadMemorySample, type LoadSide, measureLoadMemory } from './sbm-load-memory'
import { arrayBufferOf, loadAnchor, loadOurs } from './sbm-node-loads'

/** Issue 5 goals these figures are held against. */
export const sbmNodeGoals = {
  decodeToPickableVsAnchorAtMost: 0.3,
  bvhBytesPerTriangleVsAnchorAtMost: 1.05,
  raycastThroughputVsAnchorAtLeast: 0.9,
  peakLoadBytesPerGeometryByteAtMost: 1.5,
}

/** Options of {@link runSbmNodeBench}. */
export interface SbmNodeBenchOptions {
  recipe?: BuildingRecipe
  rounds?: number
  warmupRounds?: number
  rayCount?: number
  /** Fresh-process loads per side for the peak memory figures. */
  memoryRounds?: number
  log?: (line: string) => void
}

const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.()

/**
 * Medians of one side's fresh-process loads. The parts split the peak: what the loaded result
 * keeps (JS heap + ArrayBuffers after collection), what was garbage but still uncollected when the
 * load returned, and RSS outside both (WebAssembly memory, allocator slack, touched code pages).
 */
function summariseLoadMemory(samples: LoadMemorySample[]) {
  const bytes = (pick: (sample: LoadMemorySample) => number) => measure(samples.map(pick), 'bytes')
  return {
    geometryBytes: samples[0]?.geometryBytes ?? 0,
    geometryCount: samples[0]?.geometryCount ?? 0,
    peakLoadBytes: bytes((sample) => sample.peakRssBytes),
    peakLoadBytesPerGeometryByte: measure(
      samples.map((sample) => sample.peakRssBytes / sample.geometryBytes),
      'bytes per geometry byte',
    ),
    peakLoadBytesSampledFromParent: bytes((sample) => sample.peakRssSampledBytes ?? Number.NaN),
    parts: {
      resultRetainedBytes: bytes((sample) => sample.jsRetainedBytes),
      garbageUncollectedAtEndBytes: bytes((sample) => sample.jsAtEndBytes - sample.jsRetainedBytes),
      outsideJsHeapAndArrayBuffersBytes: bytes(
        (sample) => sample.peakRssBytes - sample.jsAtEndBytes,
      ),
    },
    jsHeapAndArrayBuffersAtEndBytes: bytes((sample) => sample.jsAtEndBytes),
    runs: samples,
  }
}

/** Rays from a sphere around the building toward random points inside it: mostly hits. */
function seededRays(bounds: Box3, count: number, seed: number): PickRay[] {
  let state = seed >>> 0
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 4294967296
  }
  const center = bounds.getCenter(new Vector3())
  const radius = bounds.getSize(new Vector3()).length()
  return Array.from({ length: count }, () => {
    const theta = random() * Math.PI * 2
    const phi = Math.acos(2 * random() - 1)
    const origin = new Vector3(
      center.x + radius * Math.sin(phi) * Math.cos(theta),
      center.y + radius * Math.cos(phi),
      center.z + radius * Math.sin(phi) * Math.sin(theta),
    )
    const target = new Vector3(
      bounds.min.x + random() * (bounds.max.x - bounds.min.x),
      bounds.min.y + random() * (bounds.max.y - bounds.min.y),
      bounds.min.z + random() * (bounds.max.z - bounds.min.z),
    )
    return {
      origin: origin.toArray() as [number, number, number],
      direction: target.sub(origin).normalize().toArray() as [number, number, number],
    }
  })
}

function bvhBytes(bvh: MeshBVH): number {
  return MeshBVH.serialize(bvh, { cloneBuffers: false }).roots.reduce(
    (sum, root) => sum + root.byteLength,
    0,
  )
}

/** Runs (a)–(d) and writes bench/results/sbm-node.json; returns the report. */
export async function runSbmNodeBench(options: SbmNodeBenchOptions = {}) {
  const log = options.log ?? console.log
  const recipe = options.recipe ?? benchBuildingRecipe
  const rounds = options.rounds ?? 5
  const warmupRounds = options.warmupRounds ?? 1
  const rayCount = options.rayCount ?? 20_000
  const memoryRounds = options.memoryRounds ?? 3
  const startedAtMs = performance.now()
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const prepared = await prepareBuilding(recipe, log)
  const glb = arrayBufferOf(new Uint8Array(readFileSync(prepared.glbPath)))
  const sbm = new Uint8Array(readFileSync(prepared.sbmPath))

  // (c) decode to pickable, alternating ours and the anchor so machine load hits both alike.
  const oursMs: number[] = []
  const anchorMs: number[] = []
  const oursPhases = new Map<string, number[]>()
  for (let round = 0; round < warmupRounds + rounds; round++) {
    const isTimed = round >= warmupRounds
    await quiet.beforeRound(`decode round ${round + 1}`, isTimed)
    for (const which of round % 2 === 0 ? ['ours', 'anchor'] : ['anchor', 'ours']) {
      collectGarbage()
      const start = performance.now()
      if (which === 'ours') {
        const { model, timings } = await loadOurs(sbm)
        const elapsed = performance.now() - start
        model.dispose()
        if (isTimed) {
          oursMs.push(elapsed)
          for (const [phase, ms] of Object.entries(timings)) {
            oursPhases.set(phase, [...(oursPhases.get(phase) ?? []), ms])
          }
        }
      } else {
        const { meshes } = await loadAnchor(glb)
        const elapsed = performance.now() - start
        for (const mesh of meshes) mesh.geometry.dispose()
        if (isTimed) anchorMs.push(elapsed)
      }
    }
    quiet.afterRound()
    log(`sbm: decode round ${round + 1}/${warmupRounds + rounds} done`)
  }
  const decodeOurs = measure(oursMs, 'ms')
  const decodeAnchor = measure(anchorMs, 'ms')

  // (e) peak memory during load, each load alone in a fresh process, sides alternating.
  const memorySamples: Record<LoadSide, LoadMemorySample[]> = { ours: [], anchor: [] }
  for (let round = 0; round < memoryRounds; round++) {
    for (const side of round % 2 === 0
      ? (['ours', 'anchor'] as const)
      : (['anchor', 'ours'] as const)) {
      const sample = await quiet.round(`memory round ${round + 1} ${side}`, () =>
        measureLoadMemory(side, side === 'ours' ? prepared.sbmPath : prepared.glbPath),
      )
      memorySamples[side].push(sample)
      log(
        `sbm: memory round ${round + 1}/${memoryRounds} ${side}: peak +${(sample.peakRssBytes / 2 ** 20).toFixed(1)} MiB, ${(sample.peakRssBytes / sample.geometryBytes).toFixed(2)}× geometry`,
      )
    }
  }
  const memory = {
    metric:
      'peak RSS growth during one load over a baseline taken after gc with the input file already in memory: the kernel high-water mark (VmHWM, reset through /proc/self/clear_refs at the baseline), each load in a fresh node --expose-gc process; geometryBytes = position + normal + uv + index bytes of the loaded distinct geometries',
    ours: summariseLoadMemory(memorySamples.ours),
    anchor: summariseLoadMemory(memorySamples.anchor),
  }

  // One loaded copy of each for (b) and (d).
  const ours = await loadOurs(sbm)
  const anchor = await loadAnchor(glb)

  // (b) BVH bytes per triangle, over each side's distinct geometries.
  const oursBvhBytes = ours.decoded.bvhRoots.reduce((sum, root) => sum + root.byteLength, 0)
  const oursTriangles = ours.decoded.stats.triangleCount
  const anchorGeometries = new Set<BufferGeometry>(anchor.meshes.map((mesh) => mesh.geometry))
  let anchorBvhBytes = 0
  let anchorTriangles = 0
  for (const geometry of anchorGeometries) {
    anchorBvhBytes += bvhBytes(geometry.boundsTree as MeshBVH)
    anchorTriangles += geometry.index!.count / 3
  }
  const storedChunk = parseGlb(sbm).extraChunks.find((chunk) => chunk.type === BVH_CHUNK_TYPE)
  const bvhMemory = {
    oursBytesPerTriangle: oursBvhBytes / oursTriangles,
    anchorBytesPerTriangle: anchorBvhBytes / anchorTriangles,
    storedInFileBytesPerTriangle: (storedChunk?.data.byteLength ?? 0) / oursTriangles,
  }

  // (d) raycast throughput over the same rays.
  const scene = new PickingScene()
  addDecodedSbm(scene, 'building', ours.decoded)
  const bounds = new Box3().setFromObject(anchor.scene)
  const rays = seededRays(bounds, rayCount, recipe.seed)
  for (const mesh of anchor.meshes) {
    mesh.raycast = acceleratedRaycast
    mesh.geometry.computeBoundingSphere()
    // Picking counts both faces (a POI can go on the inside of a pipe or wall); so must the anchor.
    for (const material of [mesh.material].flat()) material.side = DoubleSide
  }
  const raycaster = new Raycaster()
  raycaster.firstHitOnly = true
  const castAnchor = (ray: PickRay) => {
    raycaster.ray.origin.fromArray(ray.origin)
    raycaster.ray.direction.fromArray(ray.direction)
    return raycaster.intersectObjects(anchor.meshes, false)[0] ?? null
  }
  let disagreements = 0
  let hits = 0
  for (const ray of rays.slice(0, 500)) {
    const a = scene.raycast(ray)
    const b = castAnchor(ray)
    if (a) hits++
    if ((a === null) !== (b === null) || (a && b && Math.abs(a.distance - b.distance) > 1e-4)) {
      disagreements++
    }
  }
  const oursRaysPerSecond: number[] = []
  const anchorRaysPerSecond: number[] = []
  for (let round = 0; round < warmupRounds + rounds; round++) {
    const isTimed = round >= warmupRounds
    await quiet.beforeRound(`raycast round ${round + 1}`, isTimed)
    for (const which of round % 2 === 0 ? ['ours', 'anchor'] : ['anchor', 'ours']) {
      const start = performance.now()
      if (which === 'ours') for (const ray of rays) scene.raycast(ray)
      else for (const ray of rays) castAnchor(ray)
      const perSecond = rays.length / ((performance.now() - start) / 1000)
      if (isTimed) (which === 'ours' ? oursRaysPerSecond : anchorRaysPerSecond).push(perSecond)
    }
    quiet.afterRound()
  }
  const raycastOurs = measure(oursRaysPerSecond, 'rays/s')
  const raycastAnchor = measure(anchorRaysPerSecond, 'rays/s')

  const ratios = {
    fileSize: ratioOf(
      'SBM file',
      'source GLB',
      'bytes',
      prepared.sbmSizeBytes,
      prepared.glbSizeBytes,
    ),
    bvhBytesPerTriangle: ratioOf(
      'stored BVH (deserialized)',
      'new MeshBVH()',
      'bytes per triangle',
      bvhMemory.oursBytesPerTriangle,
      bvhMemory.anchorBytesPerTriangle,
    ),
    decodeToPickable: ratioOf(
      'decodeSbm + createSbmObject (stored BVHs)',
      'GLTFLoader.parse + new MeshBVH()',
      'ms',
      decodeOurs.median,
      decodeAnchor.median,
    ),
    raycastThroughput: ratioOf(
      'PickingScene.raycast',
      'Raycaster + acceleratedRaycast (firstHitOnly)',
      'rays/s',
      raycastOurs.median,
      raycastAnchor.median,
    ),
    peakLoadBytesPerGeometryByte: ratioOf(
      'decodeSbm + createSbmObject (stored BVHs)',
      'GLTFLoader.parse + new MeshBVH()',
      'peak load bytes per geometry byte',
      memory.ours.peakLoadBytesPerGeometryByte.median,
      memory.anchor.peakLoadBytesPerGeometryByte.median,
    ),
  }
  const report = {
    benchmark: 'sbm-node',
    description:
      'SBM vs the plain-GLB three.js path in Node on a seeded multi-floor building; ratios are ours ÷ anchor of medians measured in the same run, rounds alternating',
    machine,
    recipe,
    building: {
      triangleCount: prepared.conversion.triangleCount,
      distinctGeometryTriangleCount: oursTriangles,
      meshCount: prepared.conversion.meshCount,
      conversionMs: Math.round(prepared.conversionMs),
    },
    fileSize: {
      sourceGlbBytes: prepared.glbSizeBytes,
      sbmBytes: prepared.sbmSizeBytes,
    },
    bvhMemory,
    decodeToPickable: {
      ours: decodeOurs,
      anchor: decodeAnchor,
      /** Spread of ours: max ÷ min over the timed rounds (issue 23.2: under 2×). */
      oursSpread: Math.round((decodeOurs.max / decodeOurs.min) * 100) / 100,
      /** Where ours' time goes: median ms per phase of decodeSbm, then createSbmObject. */
      oursPhasesMs: Object.fromEntries(
        [...oursPhases].map(([phase, values]) => [phase, measure(values, 'ms').median]),
      ),
    },
    raycast: {
      rayCount,
      hitShareOfFirst500: hits / 500,
      disagreementsInFirst500: disagreements,
      ours: raycastOurs,
      anchor: raycastAnchor,
    },
    memory,
    ratios,
    goals: {
      ...sbmNodeGoals,
      decodeToPickableMet:
        ratios.decodeToPickable.value <= sbmNodeGoals.decodeToPickableVsAnchorAtMost,
      bvhBytesPerTriangleMet:
        ratios.bvhBytesPerTriangle.value <= sbmNodeGoals.bvhBytesPerTriangleVsAnchorAtMost,
      raycastThroughputMet:
        ratios.raycastThroughput.value >= sbmNodeGoals.raycastThroughputVsAnchorAtLeast,
      peakLoadBytesPerGeometryByteMet:
        memory.ours.peakLoadBytesPerGeometryByte.median <=
        sbmNodeGoals.peakLoadBytesPerGeometryByteAtMost,
    },
    durationMs: Math.round(performance.now() - startedAtMs),
  }
  ours.model.dispose()
  log(`sbm: wrote ${writeBenchResult('sbm-node', report, quiet)}`)
  return report
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runSbmNodeBench()
  console.log(JSON.stringify(report.ratios, null, 2))
}
