import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Text-like files that shrink under compression; images, tiles and models are left alone. */
const compressibleExtension = /\.(?:js|mjs|css|html|svg|json|wasm|txt)$/
/** Below this a compressed copy saves less than its extra request headers cost. */
const minimumSizeBytes = 1024
/** A copy is written only if it is at most this fraction of the original. */
const maximumRatio = 0.9

/** What {@link compressFolder} wrote. */
export interface PrecompressSummary {
  files: number
  originalBytes: number
  brotliBytes: number
  gzipBytes: number
}

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip -9) beside every compressible file
 * of the folder, recursively. Done once at build time so the server answers with the smallest
 * encoding without compressing on each request (server/plugins/web-app.ts serves them).
 */
export async function compressFolder(folder: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, originalBytes: 0, brotliBytes: 0, gzipBytes: 0 }
  const entries = await readdir(folder, { recursive: true })
  const paths = entries.filter((entry) => compressibleExtension.test(entry))
  // Two files at a time: brotli's best quality costs ~1 s per MB of CPU, and builds share
  // a 2-core machine with everything else.
  let next = 0
  async function work() {
    while (next < paths.length) {
      const path = join(folder, paths[next++] as string)
      await compressFile(path, summary)
    }
  }
  await Promise.all([work(), work()])
  return summary
}

async function compressFile(path: string, summary: PrecompressSummary): Promise<void> {
  const info = await stat(path)
  if (!info.isFile() || info.size < minimumSizeBytes) return
  const original = await readFile(path)
  const [brotliBytes, gzipBytes] = await Promise.all([
    brotli(original, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(original, { level: 9 }),
  ])
  summary.files++
  summary.originalBytes += original.length
  if (brotliBytes.length <= original.length * maximumRatio) {
    await writeFile(`${path}.br`, brotliBytes)
    summary.brotliBytes += brotliBytes.length
  }
  if (gzipBytes.length <= original.length * maximumRatio) {
    await writeFile(`${path}.gz`, gzipBytes)
    summary.gzipBytes += gzipBytes.length
  }
}

/**
 * Vite plugin: after a production build, precompresses the output folder with
 * {@link compressFolder} (source maps excluded: only developer tools fetch them).
 */
export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'twinscape:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const summary = await compressFolder(outDir)
      const megabytes = (bytes: number) => (bytes / 1e6).toFixed(2)
      this.info(
        `precompressed ${summary.files} files: ${megabytes(summary.originalBytes)} MB → ` +
          `brotli ${megabytes(summary.brotliBytes)} MB, gzip ${megabytes(summary.gzipBytes)} MB`,
      )
    },
  }
}
