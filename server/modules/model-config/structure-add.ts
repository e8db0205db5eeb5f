import { randomUUID } from 'node:crypto'
import type { ServerMessage } from '../../../contract/messages'
import type {
  MergeStep,
  StructureAddPlan,
  StructureAddStatusDatum,
} from '../../../contract/model-config'
import { AppError, fieldDetail } from '../../http/app-error'
import type { UploadedFile } from '../../http/define-route'
import type { FileStorage } from '../../plugins/storage'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { BuildingService, StructureModel } from '../building/building.service'
import type { ConversionPool } from '../building/conversion-pool'
import { displayNameOf, inspectSbm } from '../building/model-files'
import type { JobKind, JobQueue } from '../jobs/job-queue'
import { type Clock, timestampOf } from '../time/clock'
import { type MergeFile, refersTo } from './merge-inputs'
import {
  checkMapImages,
  createModelToSbm,
  errorItemOf,
  itemOf,
  readMergeFile,
} from './model-to-sbm'
import { type CurrentStructure, planStructureAdd } from './structure-add-plan'

/** What the structure add is made from. */
export interface StructureAddDependencies {
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

interface Run {
  user: AuthUser
  shell: MergeFile | null
  shellMaps: MergeFile[]
  floors: MergeFile[]
  floorMaps: MergeFile[]
  status: StructureAddStatusDatum
  done: Promise<void>
}

const addTimeLimitMs = 60 * 60_000
/** Ended runs kept in memory for their status (an add leaves its result in the project). */
const keptRuns = 200

/**
 * The structure add: a new shell and/or floor models for an existing building project. The
 * preview and the save share one plan (structure-add-plan.ts); the job converts each model
 * through the conversion pool with its maps (as the merge does), then saves everything in one
 * transaction (`extendStructure`). A model the converter refuses stops the add: nothing saved.
 */
export function createStructureAdds(dependencies: StructureAddDependencies): StructureAdds {
  const { storage, clock, access, building, conversions, jobs } = dependencies
  const runs = new Map<string, Run>()
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

  const setStep = (run: Run, index: number, state: MergeStep['state']) => {
    const step = run.status.steps[index]
    if (!step) return
    step.state = state
    const done = run.status.steps.filter((candidate) => candidate.state === 'done').length
    run.status.progress = done / run.status.steps.length
  }

  const execute = async (run: Run, signal: AbortSignal) => {
    const { plan } = run.status
    const readMaps = (files: MergeFile[]) =>
      Promise.all(
        files.map(async (file) => ({ name: file.name, bytes: await readMergeFile(storage, file) })),
      )
    const shellMaps = await readMaps(run.shellMaps)
    const floorMaps = await readMaps(run.floorMaps)
    const warnings: ServerMessage[] = []
    const usedMaps = new Set<string>()
    const noteMaps = async (model: MergeFile, maps: Array<{ name: string }>) => {
      const bytes = await readMergeFile(storage, model)
      for (const map of maps) if (refersTo(bytes, map.name)) usedMaps.add(map.name)
    }
    const part = async (
      model: MergeFile,
      fileName: string,
      maps: Array<{ name: string; bytes: Uint8Array }>,
      role: 'shell' | 'floor',
      floor: { id: string; name: string; elevationMeters: number } | null,
    ): Promise<StructureModel> => {
      await noteMaps(model, maps)
      const sbm = await convert(run.user.id, model, maps, role, floor, signal)
      warnings.push(...sbm.warnings)
      return {
        fileName,
        bytes: sbm.bytes,
        info: inspectSbm(fileName, sbm.bytes).info,
        preview: sbm.preview,
      }
    }

    let step = 0
    let shell: StructureModel | null = null
    if (run.shell && plan.shell) {
      setStep(run, step, 'running')
      shell = await part(run.shell, plan.shell.fileName, shellMaps, 'shell', null)
      setStep(run, step++, 'done')
    }
    const floors: Array<{ name: string; elevation: number; model: StructureModel }> = []
    for (const floor of plan.floors) {
      if (floor.change === 'kept') continue
      signal.throwIfAborted()
      const source = run.floors.find((file) => file.name === floor.sourceName)
      if (!source) continue
      setStep(run, step, 'running')
      const header = { id: floor.name, name: floor.name, elevationMeters: floor.elevation }
      const model = await part(source, floor.models[0]!, floorMaps, 'floor', header)
      floors.push({ name: floor.name, elevation: floor.elevation, model })
      setStep(run, step++, 'done')
    }
    for (const map of [...run.shellMaps, ...run.floorMaps]) {
      if (!usedMaps.has(map.name)) {
        warnings.push({ id: 'modelConfig.mapUnused', params: { name: map.name } })
      }
    }
    setStep(run, step, 'running')
    await building.extendStructure(run.user, plan.projectId, { shell, floors })
    setStep(run, step, 'done')
    run.status.warnings = warnings.map(itemOf)
    run.status.progress = 1
    run.status.state = 'succeeded'
  }

  const addKind: JobKind<Run, void> = {
    name: 'modelConfig.add',
    // it mostly waits on the conversions ('cpu' jobs of the same user), as the merge does
    lane: 'io',
    timeLimitMs: addTimeLimitMs,
    run: (run, { signal }) => {
      run.status.state = 'running'
      return execute(run, signal)
    },
  }

  const forget = () => {
    const ended = [...runs.entries()].filter(
      ([, run]) => run.status.state !== 'running' && run.status.state !== 'queued',
    )
    for (const [id] of ended.slice(0, Math.max(0, ended.length - keptRuns))) runs.delete(id)
  }

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
      const byField = (field: string): MergeFile[] =>
        files
          .filter((file) => file.fieldName === field)
          .map((file) => ({
            name: displayNameOf(file.fileName),
            sha256: file.sha256,
            sizeBytes: file.sizeBytes,
          }))
      const shellFiles = byField('shell')
      const floorFiles = byField('floors')
      const shellMaps = byField('shell_maps')
      const floorMaps = byField('floor_maps')
      let plan: StructureAddPlan
      try {
        if (shellFiles.length > 1) {
          throw new AppError(
            'validation',
            'modelConfig.oneShellModel',
            {},
            { details: [fieldDetail('shell', 'modelConfig.oneShellModel')] },
          )
        }
        // maps travel with models: maps without their model would be dropped silently
        if (shellMaps.length > 0 && shellFiles.length === 0) {
          throw new AppError(
            'validation',
            'modelConfig.needShellModel',
            {},
            { details: [fieldDetail('shell', 'modelConfig.needShellModel')] },
          )
        }
        if (floorMaps.length > 0 && floorFiles.length === 0) {
          throw new AppError(
            'validation',
            'modelConfig.needFloorModels',
            {},
            { details: [fieldDetail('floors', 'modelConfig.needFloorModels')] },
          )
        }
        plan = planStructureAdd(fields.project_id, await currentOf(user, fields.project_id), {
          shellName: shellFiles[0]?.name ?? null,
          floorNames: floorFiles.map((file) => file.name),
          storeyHeightMeters: fields.storey_height,
        })
        await checkMapImages(storage, [
          ['shell_maps', shellMaps],
          ['floor_maps', floorMaps],
        ])
      } catch (error) {
        await building.releaseUnused(sources)
        throw error
      }
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
      const job = jobs.submit(addKind, user.id, run)
      runs.set(id, run)
      run.done = job.result
        .then(
          () => undefined,
          (error: unknown) => {
            run.status.state = 'failed'
            run.status.error = errorItemOf(error)
            const running = run.status.steps.find((candidate) => candidate.state === 'running')
            if (running) running.state = 'failed'
          },
        )
        .finally(async () => {
          // the uploads were only the converter's input; the project keeps the SBMs
          await building.releaseUnused(sources).catch(() => undefined)
          forget()
        })
      if (job.status().state === 'failed') {
        const refusal = await job.result.then(
          () => undefined,
          (error: unknown) => error,
        )
        await run.done
        runs.delete(id)
        throw refusal
      }
      return structuredClone(run.status)
    },

    async status(user, id) {
      const run = runs.get(id)
      if (!run || run.user.id !== user.id) throw new AppError('notFound', 'modelConfig.noSuchAdd')
      return structuredClone(run.status)
    },

    async settled(id) {
      await runs.get(id)?.done
    },
  }
}
