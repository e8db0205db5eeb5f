/**
 * Builders of small zips for the tests: normal ones with fflate's zipSync, and hostile or exotic
 * ones (lying sizes, legacy-encoded names, zip64) by editing or writing the bytes directly,
 * since no well-behaved archiver produces them.
 */
import { zipSync } from 'fflate'
import { crc32 } from './crc32'

/** A deflated zip of the given files (text is UTF-8 encoded). */
export function zipOf(
  files: Record<string, Uint8Array | string>,
  level: 0 | 6 = 6,
): Uint8Array<ArrayBuffer> {
  const encoded: Record<string, Uint8Array> = {}
  for (const [name, content] of Object.entries(files)) {
    encoded[name] = typeof content === 'string' ? new TextEncoder().encode(content) : content
  }
  return zipSync(encoded, { level, mtime: new Date('2026-03-04T05:06:08') })
}

/** Deterministic bytes that deflate to roughly half their size. */
export function sampleBytes(sizeBytes: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(sizeBytes)
  let state = seed
  for (let index = 0; index < sizeBytes; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    bytes[index] = index % 2 === 0 ? index & 0xff : state >>> 24
  }
  return bytes
}

/** OBJ-like text that deflates fast but not absurdly well, for archives that take a while to extract. */
export function meshText(lineCount: number): string {
  const lines: string[] = []
  for (let line = 0; line < lineCount; line++) lines.push(`v ${line % 997} ${(line * 7) % 991} 1.5`)
  return lines.join('\n')
}

/** Fields of a central directory record that tests forge. */
export interface CentralRecordPatch {
  flags?: number
  methodCode?: number
  crc32?: number
  compressedSizeBytes?: number
  uncompressedSizeBytes?: number
}

/** Rewrites fields of the central directory record of the entry `name` (ASCII names only). */
export function patchCentralRecord(
  zip: Uint8Array,
  name: string,
  patch: CentralRecordPatch,
): Uint8Array<ArrayBuffer> {
  const patched = zip.slice()
  const view = new DataView(patched.buffer)
  const at = findCentralRecord(patched, name)
  if (patch.flags !== undefined) view.setUint16(at + 8, patch.flags, true)
  if (patch.methodCode !== undefined) view.setUint16(at + 10, patch.methodCode, true)
  if (patch.crc32 !== undefined) view.setUint32(at + 16, patch.crc32, true)
  if (patch.compressedSizeBytes !== undefined) {
    view.setUint32(at + 20, patch.compressedSizeBytes, true)
  }
  if (patch.uncompressedSizeBytes !== undefined) {
    view.setUint32(at + 24, patch.uncompressedSizeBytes, true)
  }
  return patched
}

/** Replaces an entry's name bytes in both headers with others of the same length. */
export function replaceRawName(
  zip: Uint8Array,
  name: string,
  rawName: Uint8Array,
): Uint8Array<ArrayBuffer> {
  const nameBytes = new TextEncoder().encode(name)
  if (nameBytes.byteLength !== rawName.byteLength) throw new Error('names must be equally long')
  const patched = zip.slice()
  for (let at = 0; at + nameBytes.byteLength <= patched.byteLength; at++) {
    if (nameBytes.every((byte, index) => patched[at + index] === byte)) patched.set(rawName, at)
  }
  return patched
}

function findCentralRecord(zip: Uint8Array, name: string): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const decoder = new TextDecoder()
  for (let at = 0; at + 46 <= zip.byteLength; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue
    const nameLength = view.getUint16(at + 28, true)
    if (decoder.decode(zip.subarray(at + 46, at + 46 + nameLength)) === name) return at
  }
  throw new Error(`no central record named ${name}`)
}

/**
 * A one-entry stored archive in zip64 form (sizes and offset in the zip64 extra field, counts in
 * the zip64 end record), as archivers write for files over 4 GiB or 65,535 entries.
 */
export function zip64Of(name: string, content: Uint8Array): Uint8Array {
  const nameBytes = new TextEncoder().encode(name)
  const checksum = crc32(content)
  const local = new DataView(new ArrayBuffer(30 + nameBytes.byteLength))
  local.setUint32(0, 0x04034b50, true)
  local.setUint16(4, 45, true)
  local.setUint32(14, checksum, true)
  local.setUint32(18, content.byteLength, true)
  local.setUint32(22, content.byteLength, true)
  local.setUint16(26, nameBytes.byteLength, true)
  new Uint8Array(local.buffer).set(nameBytes, 30)

  const centralOffset = local.byteLength + content.byteLength
  const central = new DataView(new ArrayBuffer(46 + nameBytes.byteLength + 28))
  central.setUint32(0, 0x02014b50, true)
  central.setUint16(4, 45, true)
  central.setUint16(6, 45, true)
  central.setUint32(16, checksum, true)
  central.setUint32(20, 0xffffffff, true)
  central.setUint32(24, 0xffffffff, true)
  central.setUint16(28, nameBytes.byteLength, true)
  central.setUint16(30, 28, true)
  central.setUint32(42, 0xffffffff, true)
  new Uint8Array(central.buffer).set(nameBytes, 46)
  const extra = 46 + nameBytes.byteLength
  central.setUint16(extra, 0x0001, true)
  central.setUint16(extra + 2, 24, true)
  central.setBigUint64(extra + 4, BigInt(content.byteLength), true)
  central.setBigUint64(extra + 12, BigInt(content.byteLength), true)
  central.setBigUint64(extra + 20, 0n, true)

  const zip64EndOffset = centralOffset + central.byteLength
  const tail = new DataView(new ArrayBuffer(56 + 20 + 22))
  tail.setUint32(0, 0x06064b50, true)
  tail.setBigUint64(4, 44n, true)
  tail.setUint16(12, 45, true)
  tail.setUint16(14, 45, true)
  tail.setBigUint64(24, 1n, true)
  tail.setBigUint64(32, 1n, true)
  tail.setBigUint64(40, BigInt(central.byteLength), true)
  tail.setBigUint64(48, BigInt(centralOffset), true)
  tail.setUint32(56, 0x07064b50, true)
  tail.setBigUint64(64, BigInt(zip64EndOffset), true)
  tail.setUint32(72, 1, true)
  tail.setUint32(76, 0x06054b50, true)
  tail.setUint16(84, 0xffff, true)
  tail.setUint16(86, 0xffff, true)
  tail.setUint32(88, 0xffffffff, true)
  tail.setUint32(92, 0xffffffff, true)

  const zip = new Uint8Array(zip64EndOffset + tail.byteLength)
  zip.set(new Uint8Array(local.buffer), 0)
  zip.set(content, local.byteLength)
  zip.set(new Uint8Array(central.buffer), centralOffset)
  zip.set(new Uint8Array(tail.buffer), zip64EndOffset)
  return zip
}
