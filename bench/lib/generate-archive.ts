import { zipSync, type Zippable } from 'fflate'

/**
 * A seeded, reproducible zip that looks like what users upload: a few big mesh-like binaries
 * (float positions on a noisy surface, triangle indices), hundreds of medium ones, and
 * thousands of small text files (OBJ-like vertex lists, JSON records). The mix matters: small
 * entries stress per-entry overhead, big ones stress raw inflate speed.
 */
export interface GeneratedArchive {
  bytes: Uint8Array
  entryCount: number
  uncompressedSizeBytes: number
}

/** What to generate: the same seed and target always give the same bytes. */
export interface ArchiveRecipe {
  seed: number
  /** Generation stops once the deflated payload reaches this size. */
  targetCompressedSizeBytes: number
}

/** mulberry32: tiny, fast and good enough to make content that neither repeats nor is pure noise. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), state | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/** Positions of a gridded terrain-like surface, quantised like real exported meshes. */
function meshPositions(random: () => number, vertexCount: number): Uint8Array {
  const positions = new Float32Array(vertexCount * 3)
  const columns = Math.max(1, Math.round(Math.sqrt(vertexCount)))
  const frequency = 0.02 + random() * 0.05
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    const x = vertex % columns
    const y = Math.floor(vertex / columns)
    const height = Math.sin(x * frequency) * Math.cos(y * frequency) * 12 + random() * 4
    positions[vertex * 3] = x * 0.25
    positions[vertex * 3 + 1] = y * 0.25
    positions[vertex * 3 + 2] = Math.round(height * 65536) / 65536
  }
  return new Uint8Array(positions.buffer)
}

/** Triangle indices of the same grid: highly regular, so they deflate well. */
function meshIndices(vertexCount: number): Uint8Array {
  const columns = Math.max(2, Math.round(Math.sqrt(vertexCount)))
  const rows = Math.max(2, Math.floor(vertexCount / columns))
  const indices = new Uint32Array((columns - 1) * (rows - 1) * 6)
  let write = 0
  for (let row = 0; row < rows - 1; row++) {
    for (let column = 0; column < columns - 1; column++) {
      const corner = row * columns + column
      indices.set(
        [corner, corner + 1, corner + columns, corner + 1, corner + columns + 1, corner + columns],
        write,
      )
      write += 6
    }
  }
  return new Uint8Array(indices.buffer)
}

function objText(random: () => number, lineCount: number): string {
  const lines: string[] = []
  for (let line = 0; line < lineCount; line++) {
    const x = (random() * 200 - 100).toFixed(4)
    const y = (random() * 200 - 100).toFixed(4)
    const z = (random() * 30).toFixed(4)
    lines.push(`v ${x} ${y} ${z}`)
  }
  return lines.join('\n')
}

function jsonRecords(random: () => number, recordCount: number): string {
  const records = []
  for (let record = 0; record < recordCount; record++) {
    records.push({
      id: `poi-${Math.floor(random() * 1e9).toString(36)}`,
      name: `Sensor ${record}`,
      position: [random() * 100, random() * 100, random() * 10],
      status: Math.floor(random() * 4),
      tags: ['floor', `level-${Math.floor(random() * 30)}`],
    })
  }
  return JSON.stringify(records, null, 1)
}

/**
 * Builds the archive. The expected ratios are set slightly above the real ones (~1.9 for
 * positions), so the estimate undercounts and the real archive is never below the target.
 */
export function generateArchive(recipe: ArchiveRecipe): GeneratedArchive {
  const random = createRandom(recipe.seed)
  const encoder = new TextEncoder()
  const files: Zippable = {}
  let uncompressedSizeBytes = 0
  let estimatedCompressedBytes = 0
  let fileIndex = 0
  const add = (path: string, content: Uint8Array, expectedRatio: number) => {
    files[path] = content
    uncompressedSizeBytes += content.byteLength
    estimatedCompressedBytes += content.byteLength / expectedRatio
    fileIndex++
  }
  // Interleave sizes so any prefix of the archive has the same mix as the whole.
  while (estimatedCompressedBytes < recipe.targetCompressedSizeBytes) {
    const bigVertexCount = 150_000 + Math.floor(random() * 350_000)
    add(`meshes/big-${fileIndex}.positions.bin`, meshPositions(random, bigVertexCount), 1.95)
    add(`meshes/big-${fileIndex}.indices.bin`, meshIndices(bigVertexCount / 8), 4.1)
    for (let medium = 0; medium < 10; medium++) {
      const vertexCount = 5_000 + Math.floor(random() * 30_000)
      add(`parts/part-${fileIndex}.bin`, meshPositions(random, vertexCount), 1.95)
    }
    for (let small = 0; small < 60; small++) {
      const text =
        small % 2 === 0
          ? objText(random, 30 + Math.floor(random() * 400))
          : jsonRecords(random, 5 + Math.floor(random() * 60))
      add(`text/${small % 2 === 0 ? 'obj' : 'poi'}-${fileIndex}.txt`, encoder.encode(text), 2.7)
    }
  }
  const bytes = zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') })
  return { bytes, entryCount: fileIndex, uncompressedSizeBytes }
}
