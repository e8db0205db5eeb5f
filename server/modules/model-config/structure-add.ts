import { randomUUID } from 'node:crypto'
import type { ServerMessage } from '../../../contract/messages'
import {
  type MergeStep,
  type StructureAddFileField,
  type StructureAddPlan,
  type StructureAddStatusDatum,
  structureAddStatusDatumSchema,
} from '../../../contract/model-config'
import { AppError } from '../../http/app-error'
import type { UploadedFile } from '../../http/define-route'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { BuildingService, StructureModel } from '../building/building.service'
import type { ConversionPool } from '../building/conversion-pool'
import type { JobQueue } from '../jobs/job-queue'
import { type Clock, timestampOf } from '../time/clock'
import { fieldRefusal, filesOfField, type MergeFile } from './merge-inputs'
import { checkMapImages, createModelToSbm, itemOf, type SbmFloor } from './model-to-sbm'
import { type CurrentStructure, planStructureAdd } from './structure-add-plan'
import {
  checkedOrReleased,
  createMapUse,
  createStructureJobs,
  type MapBytes,
  type StructureJobContext,
  type StructureJobRun,
  structureModelOf,
} from './structure-jobs'

/** What the structure add is made from. */
export interface StructureAddDependencies {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
  building: BuildingService
  conversions: ConversionPool
  jobs: JobQueue
}

/** The structure add (`/modelConfig/add`, SPEC §2). */
export interface StructureAdds {
  /** The structure the chosen files would leave, before anything is sent or saved. */
  preview(
    user: AuthUser,
    request: {
      project_id: string
      shell_name: string
      floor_names: string[]
      storey_height?: number | undefined
    },
  ): Promise<StructureAddPlan>
  /** Checks the files against the same plan and starts the add as a job. */
  start(
    user: AuthUser,
    fields: { project_id: string; storey_height?: number | undefined },
    files: readonly UploadedFile[],
  ): Promise<StructureAddStatusDatum>
  /** An add of this user: its steps while it runs, the structure it left once it ended. */
  status(user: AuthUser, id: string): Promise<StructureAddStatusDatum>
  /** Waits for an add's job to end (tests, shutdown). */
  settled(id: string): Promise<void>
}

interface Run extends StructureJobRun<StructureAddStatusDatum> {
  shell: MergeFile | null
  shellMaps: MergeFile[]
  floors: MergeFile[]
  floorMaps: MergeFile[]
}

/**
 * The structure add: a new shell and/or floor models for an existing building project. The
 * preview and the save share one plan (structure-add-plan.ts); the job converts each model
 * through the conversion pool with its maps (as the merge does), then saves everything in one
 * transaction (`extendStructure`). A model the converter refuses stops the add: nothing saved.
 */
export function createStructureAdds(dependencies: StructureAddDependencies): StructureAdds {
  const { database, storage, clock, access, building, conversions, jobs } = dependencies
  const convert = createModelToSbm({ storage, conversions })

  const currentOf = async (user: AuthUser, projectId: string): Promise<CurrentStructure> => {
    await access.requireEditable(user, projectId)
    const info = await building.modelInfo(user, projectId)
    const byId = new Map(info.models.map((model) => [model.id, model]))
    const shell = info.structure.shellModelId ? byId.get(info.structure.shellModelId) : undefined
    return {
      name: info.structure.name,
      shellFileName: shell?.file_name ?? null,
      floors: [...info.structure.floors]
        .sort((a, b) => a.elevation - b.elevation)
        .map((floor) => ({
          name: floor.name,
          elevation: floor.elevation,
          models: floor.modelIds.flatMap((id) => {
            const model = byId.get(id)
            return model ? [{ fileName: model.file_name, role: model.role }] : []
          }),
        })),
      fileNames: info.models.map((model) => model.file_name),
    }
  }

  const execute = async (run: Run, { signal, step: mark }: StructureJobContext) => {
    const { plan } = run.status
    const mapUse = createMapUse(storage, { isSbmScanned: true })
    const shellMaps = await mapUse.read(run.shellMaps)
    const floorMaps = await mapUse.read(run.floorMaps)
    const warnings: ServerMessage[] = []
    const part = async (
      model: MergeFile,
      fileName: string,
      maps: MapBytes[],
      role: 'shell' | 'floor',
      floor: SbmFloor | null,
    ): Promise<StructureModel> => {
      await mapUse.note(model, maps)
      const sbm = await convert(run.user.id, model, maps, role, floor, signal)
      warnings.push(...sbm.warnings)
      return structureModelOf(fileName, sbm)
    }

    let step = 0
    let shell: StructureModel | null = null
    if (run.shell && plan.shell) {
      await mark(step, 'running')
      shell = await part(run.shell, plan.shell.fileName, shellMaps, 'shell', null)
      await mark(step++, 'done')
    }
    const floors: Array<{ name: string; elevation: number; model: StructureModel }> = []
    for (const floor of plan.floors) {
      if (floor.change === 'kept') continue
      signal.throwIfAborted()
      const source = run.floors.find((file) => file.name === floor.sourceName)
      if (!source) continue
      await mark(step, 'running')
      const header = { id: floor.name, name: floor.name, elevationMeters: floor.elevation }
      const model = await part(source, floor.models[0]!, floorMaps, 'floor', header)
      floors.push({ name: floor.name, elevation: floor.elevation, model })
      await mark(step++, 'done')
    }
    warnings.push(...mapUse.unusedWarnings([...run.shellMaps, ...run.floorMaps]))
    await mark(step, 'running')
    await building.extendStructure(run.user, plan.projectId, { shell, floors })
    await mark(step, 'done')
    run.status.warnings = warnings.map(itemOf)
    run.status.progress = 1
    run.status.state = 'succeeded'
  }

  const adds = createStructureJobs<Run>({
    name: 'modelConfig.add',
    jobs,
    database,
    clock,
    building,
    statusSchema: structureAddStatusDatumSchema,
    execute,
  })

  return {
    async preview(user, request) {
      const current = await currentOf(user, request.project_id)
      return planStructureAdd(
        request.project_id,
        current,
        {
          shellName: request.shell_name.trim() === '' ? null : request.shell_name.trim(),
          floorNames: request.floor_names,
          storeyHeightMeters: request.storey_height,
        },
        { isEmptyAllowed: true },
      )
    },

    async start(user, fields, files) {
      const sources = files.map((file) => file.sha256)
      const byField = (field: StructureAddFileField) => filesOfField(files, field)
      const shellFiles = byField('shell')
      const floorFiles = byField('floors')
      const shellMaps = byField('shell_maps')
      const floorMaps = byField('floor_maps')
      const plan = await checkedOrReleased(building, sources, async () => {
        if (shellFiles.length > 1) {
          throw fieldRefusal('shell', 'modelConfig.oneShellModel')
        }
        // maps travel with models: maps without their model would be dropped silently
        if (shellMaps.length > 0 && shellFiles.length === 0) {
          throw fieldRefusal('shell', 'modelConfig.needShellModel')
        }
        if (floorMaps.length > 0 && floorFiles.length === 0) {
          throw fieldRefusal('floors', 'modelConfig.needFloorModels')
        }
        const plan = planStructureAdd(fields.project_id, await currentOf(user, fields.project_id), {
          shellName: shellFiles[0]?.name ?? null,
          floorNames: floorFiles.map((file) => file.name),
          storeyHeightMeters: fields.storey_height,
        })
        await checkMapImages(storage, [
          ['shell_maps', shellMaps],
          ['floor_maps', floorMaps],
        ])
        return plan
      })
      const id = randomUUID()
      const changed = plan.floors.filter((floor) => floor.change !== 'kept')
      const steps: MergeStep[] = [
        ...(shellFiles[0]
          ? [{ kind: 'shell' as const, name: shellFiles[0].name, state: 'waiting' as const }]
          : []),
        ...changed.map((floor) => ({
          kind: 'floor' as const,
          name: floor.sourceName ?? floor.name,
          state: 'waiting' as const,
        })),
        { kind: 'install', name: plan.name, state: 'waiting' },
      ]
      const run: Run = {
        user,
        shell: shellFiles[0] ?? null,
        shellMaps,
        floors: floorFiles,
        floorMaps,
        status: {
          id,
          projectId: fields.project_id,
          state: 'queued',
          progress: 0,
          steps,
          error: null,
          warnings: [],
          plan,
          createdAt: timestampOf(clock.nowMs()),
        },
        done: Promise.resolve(),
      }
      // the uploads are only the converter's input; the project keeps the SBMs
      return adds.submit(run, sources)
    },

    async status(user, id) {
      const written = await adds.status(user.id, id)
      if (!written) throw new AppError('notFound', 'modelConfig.noSuchAdd')
      return written
    },

    settled: (id) => adds.settled(id),
  }
}
