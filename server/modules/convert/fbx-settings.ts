/**
 * The FBX GlobalSettings that decide scale and orientation. assimp 5.2 (inside assimpjs) reads
 * FBX geometry in file units and file axes and cannot be told to convert, so the converter reads
 * these few properties itself and applies one root transform.
 */
export interface FbxAxisSettings {
  /** Centimetres per file unit (FBX's native unit is the centimetre). */
  unitScaleFactor: number
  upAxis: number
  upAxisSign: number
  frontAxis: number
  frontAxisSign: number
  coordAxis: number
  coordAxisSign: number
}

/** FBX's defaults when a file leaves a property out: centimetres, Y up, Z front, X right. */
export const DEFAULT_FBX_AXIS_SETTINGS: FbxAxisSettings = {
  unitScaleFactor: 1,
  upAxis: 1,
  upAxisSign: 1,
  frontAxis: 2,
  frontAxisSign: 1,
  coordAxis: 0,
  coordAxisSign: 1,
}

const propertyNames = {
  unitScaleFactor: 'UnitScaleFactor',
  upAxis: 'UpAxis',
  upAxisSign: 'UpAxisSign',
  frontAxis: 'FrontAxis',
  frontAxisSign: 'FrontAxisSign',
  coordAxis: 'CoordAxis',
  coordAxisSign: 'CoordAxisSign',
} as const

const BINARY_MAGIC = 'Kaydara FBX Binary  \0'

/** True for a binary FBX (the 21-byte Kaydara magic). */
export function isBinaryFbx(bytes: Uint8Array): boolean {
  if (bytes.byteLength < BINARY_MAGIC.length) return false
  for (let index = 0; index < BINARY_MAGIC.length; index++) {
    if (bytes[index] !== BINARY_MAGIC.charCodeAt(index)) return false
  }
  return true
}

/** True for an ASCII FBX: its header comment or its first top-level node. */
export function isAsciiFbx(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096))
  return /^\uFEFF?\s*;\s*FBX/.test(head) || /FBXHeaderExtension\s*:/.test(head)
}

/**
 * Reads the axis and unit properties from an FBX file's GlobalSettings node, binary or ASCII.
 * Properties the file does not state keep FBX's defaults.
 */
export function readFbxAxisSettings(bytes: Uint8Array): FbxAxisSettings {
  const settings = { ...DEFAULT_FBX_AXIS_SETTINGS }
  const read = isBinaryFbx(bytes) ? readBinaryProperty : readAsciiProperty
  // latin1 maps every byte to one character, so string offsets are byte offsets.
  const text = new TextDecoder('latin1').decode(bytes)
  const globalSettingsAt = Math.max(0, text.indexOf('GlobalSettings'))
  for (const [key, name] of Object.entries(propertyNames) as [keyof FbxAxisSettings, string][]) {
    const value = read(bytes, text, name, globalSettingsAt)
    if (value !== null && Number.isFinite(value)) settings[key] = value
  }
  if (!(settings.unitScaleFactor > 0)) settings.unitScaleFactor = 1
  return settings
}

/**
 * Binary FBX stores a property as a `P` record whose values are typed: 'S' + uint32 length +
 * bytes for the name and three type strings, then the value ('D' double, 'F' float, 'I' int32,
 * 'L' int64, 'Y' int16).
 */
function readBinaryProperty(
  bytes: Uint8Array,
  text: string,
  name: string,
  searchFrom: number,
): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = searchFrom
  for (;;) {
    const found = text.indexOf(name, at)
    if (found < 5) return null
    at = found + name.length
    // The name must be a whole string value: 'S', its exact length, then the name.
    if (bytes[found - 5] !== 0x53 || view.getUint32(found - 4, true) !== name.length) continue
    let cursor = found + name.length
    for (let skip = 0; skip < 3; skip++) {
      if (bytes[cursor] !== 0x53 || cursor + 5 > bytes.byteLength) return null
      cursor += 5 + view.getUint32(cursor + 1, true)
    }
    if (cursor + 9 > bytes.byteLength) return null
    switch (String.fromCharCode(bytes[cursor]!)) {
      case 'D':
        return view.getFloat64(cursor + 1, true)
      case 'F':
        return view.getFloat32(cursor + 1, true)
      case 'I':
        return view.getInt32(cursor + 1, true)
      case 'L':
        return Number(view.getBigInt64(cursor + 1, true))
      case 'Y':
        return view.getInt16(cursor + 1, true)
      default:
        return null
    }
  }
}

/** ASCII FBX: `P: "UnitScaleFactor", "double", "Number", "",2.54` */
function readAsciiProperty(
  _bytes: Uint8Array,
  text: string,
  name: string,
  searchFrom: number,
): number | null {
  const pattern = new RegExp(
    `P:\\s*"${name}"\\s*,\\s*"[^"]*"\\s*,\\s*"[^"]*"\\s*,\\s*"[^"]*"\\s*,\\s*([-+0-9.eE]+)`,
  )
  const match = pattern.exec(text.slice(searchFrom))
  return match ? Number(match[1]) : null
}

/**
 * The column-major 4×4 matrix (three.js/glTF order) that takes FBX file coordinates to glTF's:
 * metres, +Y up, +Z front, +X right. Rows pick the file's coord, up and front axes with their
 * signs, so a 3ds Max file (Z up, −Y front) gets the usual −90° turn about X.
 */
export function fbxToGltfMatrix(settings: FbxAxisSettings): number[] {
  const metresPerUnit = settings.unitScaleFactor / 100
  const axes = [settings.coordAxis, settings.upAxis, settings.frontAxis]
  const signs = [settings.coordAxisSign, settings.upAxisSign, settings.frontAxisSign]
  const isPermutation =
    axes.every((axis) => axis === 0 || axis === 1 || axis === 2) && new Set(axes).size === 3
  const rows = isPermutation ? axes : [0, 1, 2]
  const matrix = new Array<number>(16).fill(0)
  for (let row = 0; row < 3; row++) {
    const sign = isPermutation && signs[row]! < 0 ? -1 : 1
    // Column-major: element (row, column) lives at column * 4 + row.
    matrix[rows[row]! * 4 + row] = sign * metresPerUnit
  }
  matrix[15] = 1
  return matrix
}
