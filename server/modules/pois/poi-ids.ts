import { randomBytes } from 'node:crypto'

/**
 * POI ids are UUIDs (version 7) whose text sorts in the order they were made: a 48-bit
 * millisecond time, then a counter that only grows within a millisecond. A list call makes its
 * POIs in one transaction with one timestamp, and pages order by (created_at, id), so the ids
 * keep the list's order: a copy layout or a batch file reads back as it was sent.
 */

let lastMs = 0
let counter = 0n
/** The counter spans 42 bits; starting it in the lower half leaves room to count up. */
const counterStartMask = (1n << 41n) - 1n
const counterMask = (1n << 42n) - 1n

/** A new id, after every id this process made before (same or earlier clock). */
export function nextPoiId(nowMs: number = Date.now()): string {
  const random = randomBytes(10)
  if (nowMs > lastMs) {
    lastMs = nowMs
    counter = BigInt(`0x${random.subarray(0, 6).toString('hex')}`) & counterStartMask
  } else {
    counter = (counter + 1n) & counterMask
    // a counter that wrapped moves the time on by one millisecond instead of going back
    if (counter === 0n) lastMs += 1
  }
  const time = lastMs.toString(16).padStart(12, '0')
  const high = Number(counter >> 30n) // 12 bits
  const low = Number(counter & ((1n << 30n) - 1n)) // 30 bits
  const tail = random.subarray(6, 10).toString('hex') // 32 bits
  // variant 10xx: the top two bits of the 16-bit group after the version group
  const variantGroup = (0x8000 | (low >>> 16)).toString(16).padStart(4, '0')
  const lowRest = (low & 0xffff).toString(16).padStart(4, '0')
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${high.toString(16).padStart(3, '0')}-${variantGroup}-${lowRest}${tail}`
}
