/**
 * The in-browser half of the unzip benchmark (bench/scenes/unzip.ts drives it). Production
 * build, real module worker, real Chromium: the same code path as the product. Each case
 * extracts the same archive; cases are interleaved round by round so that load from other
 * processes on the shared machine hits every case alike.
 */
import { unzipSync } from 'fflate'
import { Engine } from '../../engine/core/engine'
import { toArchiveSource } from '../../workers/unzip/archive-source'
import { crc32 } from '../../workers/unzip/crc32'
import { extractedFileBytes } from '../../workers/unzip/extracted-archive'
import { quietRound } from '../lib/page-rounds'
import {
  localDataOffset,
  localHeaderSizeBytes,
  readArchiveDirectory,
} from '../../workers/unzip/zip-reader'
import {
  type UnzipCaseName,
  type UnzipCaseSample,
  type UnzipPageConfig,
  type UnzipPageResult,
  unzipMarkPrefix,
} from './unzip-bench-protocol'

declare global {
  interface Window {
    runUnzipBench(config: UnzipPageConfig): Promise<UnzipPageResult>
    gc?: () => void
  }
}

/** What an extraction produced, reduced to what the benchmark checks. */
interface Output {
  totalBytes: number
  fileCount: number
  /** Bytes of the largest entry, to compare its CRC with the directory's. */
  sampleBytes: Uint8Array
}

/** Runs one extraction; what it returns summarises the result after the clock has stopped. */
type Extract = () => Promise<() => Output>

/**
 * Watches the main thread while work runs: Long Tasks API entries (tasks ≥ 50 ms) and a 4 ms
 * timer heartbeat whose longest gap also catches blocking shorter than 50 ms.
 */
async function watchMainThread(work: Extract, label: string) {
  const longTasksMs: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasksMs.push(entry.duration)
  })
  observer.observe({ type: 'longtask', buffered: false })
  let lastBeatMs = performance.now()
  let longestGapMs = 0
  let isWatching = true
  const beat = () => {
    const nowMs = performance.now()
    longestGapMs = Math.max(longestGapMs, nowMs - lastBeatMs)
    lastBeatMs = nowMs
    if (isWatching) setTimeout(beat, 4)
  }
  setTimeout(beat, 4)
  performance.mark(`${unzipMarkPrefix}start:${label}`)
  const startMs = performance.now()
  const summarise = await work()
  const durationMs = performance.now() - startMs
  performance.mark(`${unzipMarkPrefix}end:${label}`)
  isWatching = false
  // Let the observer deliver the entries of the last task before reading them.
  await new Promise((resolve) => setTimeout(resolve, 20))
  beat()
  for (const entry of observer.takeRecords()) longTasksMs.push(entry.duration)
  observer.disconnect()
  return {
    output: summarise(),
    durationMs,
    longestTaskMs: longTasksMs.length > 0 ? Math.max(...longTasksMs) : 0,
    longestHeartbeatGapMs: longestGapMs,
  }
}

function summariseFiles(files: { name: string; bytes: Uint8Array }[]): Output {
  let totalBytes = 0
  let largest: Uint8Array = new Uint8Array(0)
  for (const file of files) {
    totalBytes += file.bytes.byteLength
    if (file.bytes.byteLength > largest.byteLength) largest = file.bytes
  }
  return { totalBytes, fileCount: files.length, sampleBytes: largest }
}

window.runUnzipBench = async (config) => {
  const log = (line: string) => console.log(`[unzip-bench] ${line}`)
  const response = await fetch(config.archiveUrl)
  const archiveBlob = await response.blob()
  const listing = await readArchiveDirectory(toArchiveSource(archiveBlob))
  const files = listing.entries.filter((entry) => !entry.isDirectory)
  const largest = files.reduce((a, b) =>
    b.uncompressedSizeBytes > a.uncompressedSizeBytes ? b : a,
  )
  log(`archive ${archiveBlob.size} bytes, ${files.length} files`)

  // The app's engine (its default worker pool), and one limited to a single worker.
  const engine = new Engine()
  const singleWorkerEngine = new Engine({ maxUnzipWorkers: 1 })
  const fflateEngine = new Engine({ inflateNatively: false })
  const oursWith =
    (on: Engine): Extract =>
    async () => {
      const archive = await on.run('archive.extract', { source: archiveBlob })
      return () =>
        summariseFiles(
          archive.files.map((file) => ({
            name: file.name,
            bytes: extractedFileBytes(archive, file),
          })),
        )
    }

  const cases: Record<UnzipCaseName, Extract> = {
    'ours-worker': oursWith(engine),
    'ours-single-worker': oursWith(singleWorkerEngine),
    'ours-worker-fflate': oursWith(fflateEngine),
    'fflate-unzipSync-main': async () => {
      // From the same Blob as the other cases (an upload is a File): read it whole, then unzip.
      const unzipped = unzipSync(new Uint8Array(await archiveBlob.arrayBuffer()))
      return () =>
        summariseFiles(
          Object.entries(unzipped)
            .filter(([name]) => !name.endsWith('/'))
            .map(([name, bytes]) => ({ name, bytes })),
        )
    },
    'decompression-stream-main': async () => {
      // Entry by entry, as an app without a zip library would: directory from our reader,
      // data as Blob slices (no copy) through the browser's native inflater.
      const directory = await readArchiveDirectory(toArchiveSource(archiveBlob))
      const extracted: { name: string; bytes: Uint8Array }[] = []
      for (const entry of directory.entries) {
        if (entry.isDirectory) continue
        const header = new Uint8Array(
          await archiveBlob
            .slice(
              entry.localHeaderOffsetBytes,
              entry.localHeaderOffsetBytes + localHeaderSizeBytes,
            )
            .arrayBuffer(),
        )
        const start = localDataOffset(header, entry)
        const data = archiveBlob.slice(start, start + entry.compressedSizeBytes)
        const bytes =
          entry.compressionMethod === 'stored'
            ? new Uint8Array(await data.arrayBuffer())
            : new Uint8Array(
                await new Response(
                  data.stream().pipeThrough(new DecompressionStream('deflate-raw')),
                ).arrayBuffer(),
              )
        extracted.push({ name: entry.name, bytes })
      }
      return () => summariseFiles(extracted)
    },
  }

  const samples: UnzipCaseSample[] = []
  const names = config.cases
  for (let round = 0; round < config.warmupRounds + config.rounds; round++) {
    const isWarmup = round < config.warmupRounds
    // Rotate the order each round so no case always runs first (cold caches) or last.
    const order = names.map((_, index) => names[(index + round) % names.length]!)
    for (const name of order) {
      window.gc?.()
      await new Promise((resolve) => setTimeout(resolve, 50))
      const label = `${name}#${round}`
      const measured = await quietRound(label, () => watchMainThread(cases[name], label), !isWarmup)
      const { output } = measured
      if (
        output.totalBytes !== listing.totalUncompressedSizeBytes ||
        output.fileCount !== files.length
      ) {
        throw new Error(`${name} produced ${output.totalBytes} bytes in ${output.fileCount} files`)
      }
      if (crc32(output.sampleBytes) !== largest.crc32)
        throw new Error(`${name} damaged ${largest.name}`)
      log(
        `${isWarmup ? 'warm-up' : `round ${round - config.warmupRounds + 1}`} ${name}: ${measured.durationMs.toFixed(0)} ms, longest task ${measured.longestTaskMs.toFixed(0)} ms, longest gap ${measured.longestHeartbeatGapMs.toFixed(0)} ms`,
      )
      if (!isWarmup) {
        samples.push({
          caseName: name,
          label,
          durationMs: measured.durationMs,
          longestTaskMs: measured.longestTaskMs,
          longestHeartbeatGapMs: measured.longestHeartbeatGapMs,
        })
      }
    }
  }
  engine.dispose()
  singleWorkerEngine.dispose()
  fflateEngine.dispose()
  return {
    archiveSizeBytes: archiveBlob.size,
    uncompressedSizeBytes: listing.totalUncompressedSizeBytes,
    fileCount: files.length,
    samples,
    userAgent: navigator.userAgent,
    isCrossOriginIsolated: crossOriginIsolated,
  }
}
