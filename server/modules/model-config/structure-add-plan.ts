import type { BuildingModelRole } from '../../../contract/building'
import {
  defaultStoreyHeightMeters,
  mergeMaxFloors,
  type StructureAddPlan,
} from '../../../contract/model-config'
import { AppError, fieldDetail } from '../../http/app-error'
import { extensionOf } from '../building/building-views'
import { baseOf, floorLevelOf, mergeModelExtensions, orderFloors } from './merge-inputs'

/** A building project's structure as the add starts from it (rows, not the manifest). */
export interface CurrentStructure {
  name: string
  /** The shell model's file name, or null. */
  shellFileName: string | null
  /** Bottom-up. */
  floors: Array<{
    name: string
    elevation: number
    models: Array<{ fileName: string; role: BuildingModelRole }>
  }>
  /** Every model file name of the project (file names are unique in a project). */
  fileNames: string[]
}

/** What the user chose to add, by file name. */
export interface StructureAddRequest {
  /** The new shell's uploaded file name, or null to keep the shell. */
  shellName: string | null
  floorNames: readonly string[]
  storeyHeightMeters?: number | undefined
}

const sameName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) === 0

/**
 * Refuses names that are not models, two floors of one name, too many floors, and (unless
 * `isEmptyAllowed`: the preview shows the building as it is) nothing to add.
 */
export function checkAddNames(request: StructureAddRequest, isEmptyAllowed = false): void {
  if (!isEmptyAllowed && request.shellName === null && request.floorNames.length === 0) {
    throw new AppError(
      'validation',
      'modelConfig.addNothing',
      {},
      {
        details: [
          fieldDetail('shell', 'modelConfig.addNothing'),
          fieldDetail('floors', 'modelConfig.addNothing'),
        ],
      },
    )
  }
  if (request.floorNames.length > mergeMaxFloors) {
    throw new AppError('validation', 'modelConfig.tooManyFloors', { max: mergeMaxFloors })
  }
  const models: Array<['shell' | 'floors', string]> = [
    ...(request.shellName === null ? [] : [['shell', request.shellName] as ['shell', string]]),
    ...request.floorNames.map((name) => ['floors', name] as ['floors', string]),
  ]
  for (const [field, name] of models) {
    if (!(mergeModelExtensions as readonly string[]).includes(extensionOf(name))) {
      throw new AppError(
        'unsupportedFile',
        'modelConfig.notAModel',
        { name },
        { details: [fieldDetail(field, 'modelConfig.notAModel', { name })] },
      )
    }
  }
  const bases = request.floorNames.map((name) => baseOf(name))
  const twice = bases.findIndex(
    (base, index) => bases.findIndex((o) => sameName(o, base)) !== index,
  )
  if (twice >= 0) {
    const name = bases[twice]!
    throw new AppError(
      'validation',
      'modelConfig.floorNameTwice',
      { name },
      { details: [fieldDetail('floors', 'modelConfig.floorNameTwice', { name })] },
    )
  }
}

/** `wanted`, or `<base>-2.sbm`, `<base>-3.sbm`… when a model of the project already has it. */
function freeFileName(wanted: string, taken: Set<string>): string {
  let name = wanted
  for (let index = 2; taken.has(name.toLowerCase()); index++) {
    name = `${baseOf(wanted)}-${index}.sbm`
  }
  taken.add(name.toLowerCase())
  return name
}

/**
 * The structure an add leaves (SPEC §2 `/modelConfig/add`), computed the same way for the
 * preview and for the save: a floor model named like an existing floor (case aside) replaces
 * that floor's floor model and keeps its elevation; other floors are ordered by their names
 * (B1, 1F, 2F…) and stacked one storey apart above the top floor, basements (B1, 지하1, 地下1,
 * -1) below the lowest. A new shell replaces the old one. New file names never take a name
 * another model of the project keeps.
 */
export function planStructureAdd(
  projectId: string,
  current: CurrentStructure,
  request: StructureAddRequest,
  options: { isEmptyAllowed?: boolean } = {},
): StructureAddPlan {
  checkAddNames(request, options.isEmptyAllowed)
  const storey = request.storeyHeightMeters ?? defaultStoreyHeightMeters
  const replacing = new Map<number, string>()
  const adding: string[] = []
  for (const name of request.floorNames) {
    const index = current.floors.findIndex((floor) => sameName(floor.name, baseOf(name)))
    if (index >= 0) replacing.set(index, name)
    else adding.push(name)
  }
  // the file names the add frees (replaced floor and shell models) may be taken again
  const freed = new Set<string>()
  for (const index of replacing.keys()) {
    for (const model of current.floors[index]!.models) {
      if (model.role === 'floor') freed.add(model.fileName.toLowerCase())
    }
  }
  if (request.shellName !== null && current.shellFileName !== null) {
    freed.add(current.shellFileName.toLowerCase())
  }
  const taken = new Set(
    current.fileNames.map((name) => name.toLowerCase()).filter((name) => !freed.has(name)),
  )

  const floors: StructureAddPlan['floors'] = current.floors.map((floor, index) => {
    const source = replacing.get(index)
    if (source === undefined) {
      return {
        name: floor.name,
        elevation: floor.elevation,
        models: floor.models.map((model) => model.fileName),
        change: 'kept' as const,
        sourceName: null,
      }
    }
    const others = floor.models.filter((model) => model.role !== 'floor')
    return {
      name: floor.name,
      elevation: floor.elevation,
      models: [
        // the floor's own name, as the merge names floor files
        freeFileName(`${floor.name}.sbm`, taken),
        ...others.map((model) => model.fileName),
      ],
      change: 'replaced' as const,
      sourceName: source,
    }
  })

  const ordered = orderFloors(adding.map((name) => ({ name })))
  const elevations = current.floors.map((floor) => floor.elevation)
  const lowest = elevations.length > 0 ? Math.min(...elevations) : 0
  const top = elevations.length > 0 ? Math.max(...elevations) : -storey
  const basements =
    elevations.length > 0 ? ordered.filter((f) => (floorLevelOf(f.name) ?? 0) < 0) : []
  const above = ordered.filter((file) => !basements.includes(file))
  const added = [
    ...basements.map((file, index) => ({
      file,
      elevation: lowest - storey * (basements.length - index),
    })),
    ...above.map((file, index) => ({ file, elevation: top + storey * (index + 1) })),
  ]
  for (const { file, elevation } of added) {
    floors.push({
      name: baseOf(file.name),
      elevation,
      models: [freeFileName(`${baseOf(file.name)}.sbm`, taken)],
      change: 'added',
      sourceName: file.name,
    })
  }
  floors.sort((a, b) => a.elevation - b.elevation)

  let shell: StructureAddPlan['shell'] = null
  if (request.shellName !== null) {
    shell = {
      fileName: freeFileName(`${baseOf(request.shellName)}.sbm`, taken),
      change: current.shellFileName === null ? 'added' : 'replaced',
      replacesFileName: current.shellFileName,
    }
  } else if (current.shellFileName !== null) {
    shell = { fileName: current.shellFileName, change: 'kept', replacesFileName: null }
  }
  return { projectId, name: current.name, shell, floors }
}
