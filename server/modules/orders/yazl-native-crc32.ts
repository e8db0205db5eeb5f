import { createRequire } from 'node:module'
import { crc32 } from 'node:zlib'

/**
 * yazl checksums every byte it writes with buffer-crc32, a table lookup per byte in JavaScript
 * on the main thread (about a tenth of an offline package build's main-thread time with 10,000
 * POIs, profiled with bench/offline-package.ts). Node's zlib computes the same CRC-32 natively
 * (Node ≥ 20.15), so the copy of buffer-crc32 that yazl itself requires answers through it.
 * Same function, same results (yazl's own zips are read back with Info-ZIP by the tests).
 */
export function swapYazlCrc32ForNative(): void {
  const requireFromHere = createRequire(import.meta.url)
  const requireFromYazl = createRequire(requireFromHere.resolve('yazl'))
  const bufferCrc32 = requireFromYazl('buffer-crc32') as {
    unsigned: (data: Buffer, previous?: number) => number
  }
  bufferCrc32.unsigned = (data, previous) => crc32(data, previous ?? 0)
}
