import { SbmError } from './sbm-error'

/** The SBM layout version this code reads and writes (`asset.extras.sbm.version`). */
export const SBM_VERSION = 1

/** What a file is in a building structure: the shell, one floor, or a free-standing model. */
export type SbmRole = 'shell' | 'floor' | 'model'

/** The roles, for validation and CLI help. */
export const SBM_ROLES: readonly SbmRole[] = ['shell', 'floor', 'model']

/** One floor of a building as the SBM marker records it. */
export interface SbmFloor {
  id: string
  name: string
  /** Height of the floor's base above the building's origin, in metres. */
  elevationMeters: number
}

/** Where the SBM came from, for the model list and for support. */
export interface SbmSource {
  /** File name of the original upload. */
  name: string
  format: 'glb' | 'gltf' | 'dae' | 'fbx'
}

/**
 * The marker in `asset.extras.sbm`. Its presence (with a known version and role) is what makes
 * a GLB an SBM file; everything else in the GLB is plain glTF 2.0.
 */
export interface SbmHeader {
  version: typeof SBM_VERSION
  role: SbmRole
  floors?: SbmFloor[]
  source?: SbmSource
  /** Always metres and +Y up after conversion; recorded so readers need not assume it. */
  units: 'm'
  upAxis: 'Y'
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads and validates the SBM marker of a glTF JSON object. Throws {@link SbmError} when the
 * asset is not glTF 2.0, the marker is missing, or any of its fields is malformed.
 */
export function readSbmHeader(json: Record<string, unknown>): SbmHeader {
  const asset = json.asset
  if (!isRecord(asset)) throw new SbmError('no glTF asset object')
  if (asset.version !== '2.0') throw new SbmError(`glTF asset version ${String(asset.version)}`)
  const extras = asset.extras
  const marker = isRecord(extras) ? extras.sbm : undefined
  if (!isRecord(marker)) throw new SbmError('no asset.extras.sbm marker: a plain GLB, not an SBM')
  if (marker.version !== SBM_VERSION) {
    throw new SbmError(`SBM version ${String(marker.version)}, this reader knows ${SBM_VERSION}`)
  }
  if (!SBM_ROLES.includes(marker.role as SbmRole)) {
    throw new SbmError(`SBM role ${String(marker.role)} is not one of ${SBM_ROLES.join(', ')}`)
  }
  const header: SbmHeader = {
    version: SBM_VERSION,
    role: marker.role as SbmRole,
    units: 'm',
    upAxis: 'Y',
  }
  if (marker.floors !== undefined) header.floors = readFloors(marker.floors)
  if (marker.source !== undefined) {
    const source = marker.source
    if (
      !isRecord(source) ||
      typeof source.name !== 'string' ||
      !['glb', 'gltf', 'dae', 'fbx'].includes(source.format as string)
    ) {
      throw new SbmError('asset.extras.sbm.source is malformed')
    }
    header.source = { name: source.name, format: source.format as SbmSource['format'] }
  }
  return header
}

function readFloors(value: unknown): SbmFloor[] {
  if (!Array.isArray(value)) throw new SbmError('asset.extras.sbm.floors is not an array')
  return value.map((floor, index) => {
    if (
      !isRecord(floor) ||
      typeof floor.id !== 'string' ||
      floor.id.length === 0 ||
      typeof floor.name !== 'string' ||
      typeof floor.elevation !== 'number' ||
      !Number.isFinite(floor.elevation)
    ) {
      throw new SbmError(`asset.extras.sbm.floors[${index}] needs id, name and a finite elevation`)
    }
    return { id: floor.id, name: floor.name, elevationMeters: floor.elevation }
  })
}

/** The JSON form of a header as it is stored in `asset.extras.sbm` (elevation in metres). */
export function sbmHeaderToJson(header: Omit<SbmHeader, 'version' | 'units' | 'upAxis'>) {
  return {
    version: SBM_VERSION,
    role: header.role,
    units: 'm',
    upAxis: 'Y',
    ...(header.floors
      ? {
          floors: header.floors.map((floor) => ({
            id: floor.id,
            name: floor.name,
            elevation: floor.elevationMeters,
          })),
        }
      : {}),
    ...(header.source ? { source: header.source } : {}),
  }
}
