/**
 * Peak memory while loading the benchmark building, ours and the anchor, each load in a fresh
 * Node process so nothing another load left behind (heap, malloc arenas, meshopt's wasm memory)
 * is counted or hidden.
 *
 * Why RSS is the headline metric: both loads are one long synchronous stretch (decodeSbm after its
 * first await; GLTFLoader's promise chain has no macrotask break), so a timer inside the process
 * never fires during the load, and `heapUsed`/`arrayBuffers` are per-isolate, so another thread
 * cannot read them. The kernel's RSS high-water mark (VmHWM, reset through /proc/self/clear_refs
 * right after the baseline) sees every byte touched inside that stretch: V8 heap, ArrayBuffers,
 * WebAssembly memory, malloc. The parent also samples the child's VmRSS every few ms from outside
 * as a cross-check, and the child records `heapUsed + arrayBuffers` with an in-process timer and at
 * the end of the load, which shows what the loaded result itself holds.
 *
 * The child reads the file (and, for the anchor, copies it into the ArrayBuffer GLTFLoader takes),
 * imports every module and awaits meshopt's wasm before its baseline, so neither the input bytes nor
 * module code is counted. One load per process: a second load in the same process reuses pages
 * the first one freed (RSS does not shrink), and V8 frees ArrayBuffer memory on a background
 * sweeper after a collection, so a baseline taken after a dropped load is not a clean zero.
 */
import { fork } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { arrayBufferOf, geometryBytesOf, loadAnchor, loadOurs } from './sbm-node-loads'

/** Which load a child process measures. */
export type LoadSide = 'ours' | 'anchor'

/** One measured load inside a child process; bytes are growth over the baseline taken just before. */
export interface LoadMemorySample {
  /** Position + normal + uv + index bytes of the loaded geometries. */
  geometryBytes: number
  /** Distinct geometries in the loaded result. */
  geometryCount: number
  /** Kernel RSS high-water mark during the load minus the RSS at the baseline. */
  peakRssBytes: number
  /** The highest child VmRSS the parent sampled during the load, minus the baseline RSS. */
  peakRssSampledBytes: number | null
  /** How many parent samples fell inside the load. */
  rssSampleCount: number
  /** `heapUsed + arrayBuffers` growth: highest in-process timer sample or end-of-load value. */
  peakJsSampledBytes: number
  /** `heapUsed + arrayBuffers` growth right after the load, before any collection. */
  jsAtEndBytes: number
  /** `heapUsed + arrayBuffers` growth after two full collections with the result still alive. */
  jsRetainedBytes: number
  durationMs: number
}

interface ChildLoad extends Omit<LoadMemorySample, 'peakRssSampledBytes' | 'rssSampleCount'> {
  baselineRssBytes: number
  startedAtEpochMs: number
  endedAtEpochMs: number
}

const childScript = fileURLToPath(import.meta.url)
const parentSampleIntervalMs = 3
const childSampleIntervalMs = 2

function statusKilobytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
    return match ? Number(match[1]) : null
  } catch {
    return null // the child has exited between two samples
  }
}

const epochNowMs = () => performance.timeOrigin + performance.now()

/**
 * Runs one fresh child process that loads `filePath` as `side` once and returns what it measured.
 * Needs Linux's /proc (VmHWM and clear_refs).
 */
export async function measureLoadMemory(
  side: LoadSide,
  filePath: string,
): Promise<LoadMemorySample> {
  const child = fork(childScript, [side, filePath], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const pid = child.pid
  if (pid === undefined) throw new Error('the memory child process did not start')
  const rssSamples: { atEpochMs: number; rssBytes: number }[] = []
  const sampler = setInterval(() => {
    const rssKb = statusKilobytes(pid, 'VmRSS')
    if (rssKb !== null) rssSamples.push({ atEpochMs: epochNowMs(), rssBytes: rssKb * 1024 })
  }, parentSampleIntervalMs)
  try {
    const { baselineRssBytes, startedAtEpochMs, endedAtEpochMs, ...load } =
      await new Promise<ChildLoad>((resolve, reject) => {
        let result: ChildLoad | null = null
        child.on('message', (message) => {
          result = message as ChildLoad
        })
        child.on('error', reject)
        child.on('exit', (code) => {
          if (result && code === 0) resolve(result)
          else reject(new Error(`the ${side} memory child exited with ${code} before reporting`))
        })
      })
    const inside = rssSamples.filter(
      (sample) => sample.atEpochMs >= startedAtEpochMs && sample.atEpochMs <= endedAtEpochMs,
    )
    const highest = Math.max(...inside.map((sample) => sample.rssBytes))
    return {
      ...load,
      peakRssSampledBytes: inside.length > 0 ? highest - baselineRssBytes : null,
      rssSampleCount: inside.length,
    }
  } finally {
    clearInterval(sampler)
    if (child.exitCode === null) child.kill()
  }
}

async function runChild(side: LoadSide, filePath: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('the memory child needs node --expose-gc')
  const collect = () => {
    gc()
    gc()
  }
  const jsBytes = () => {
    const usage = process.memoryUsage()
    return usage.heapUsed + usage.arrayBuffers
  }
  const fileBytes = new Uint8Array(readFileSync(filePath))
  const anchorInput = side === 'anchor' ? arrayBufferOf(fileBytes) : null
  await MeshoptDecoder.ready

  collect()
  const baselineJsBytes = jsBytes()
  const baselineRssBytes = process.memoryUsage().rss
  writeFileSync('/proc/self/clear_refs', '5') // resets VmHWM to the current RSS
  let peakJsBytes = baselineJsBytes
  const sampler = setInterval(() => {
    peakJsBytes = Math.max(peakJsBytes, jsBytes())
  }, childSampleIntervalMs)
  const startedAtEpochMs = epochNowMs()
  const loaded = anchorInput === null ? await loadOurs(fileBytes) : await loadAnchor(anchorInput)
  const endedAtEpochMs = epochNowMs()
  clearInterval(sampler)
  const highWaterKb = statusKilobytes('self', 'VmHWM')
  if (highWaterKb === null) throw new Error('VmHWM is not readable from /proc/self/status')
  const atEndJsBytes = jsBytes()
  peakJsBytes = Math.max(peakJsBytes, atEndJsBytes)
  const geometryBytes = geometryBytesOf(loaded.geometries)
  collect()
  const load: ChildLoad = {
    geometryBytes,
    peakRssBytes: highWaterKb * 1024 - baselineRssBytes,
    peakJsSampledBytes: peakJsBytes - baselineJsBytes,
    jsAtEndBytes: atEndJsBytes - baselineJsBytes,
    jsRetainedBytes: jsBytes() - baselineJsBytes,
    // Read after the collections above, which keeps the result reachable while they ran.
    geometryCount: loaded.geometries.length,
    durationMs: Math.round(endedAtEpochMs - startedAtEpochMs),
    baselineRssBytes,
    startedAtEpochMs,
    endedAtEpochMs,
  }
  // Disconnecting lets the child exit once the report is out; the channel would keep it alive.
  process.send?.(load, () => process.disconnect())
}

if (process.argv[1] === childScript && process.send) {
  const [side, filePath] = process.argv.slice(2)
  if ((side !== 'ours' && side !== 'anchor') || !filePath) {
    throw new Error('usage: sbm-load-memory.ts ours|anchor <file>')
  }
  await runChild(side, filePath)
}
