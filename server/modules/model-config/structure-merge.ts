import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { zipSync } from 'fflate'
import type { StructureManifest } from '../../../contract/building'
import type { ServerMessage } from '../../../contract/messages'
import {
  mergeFilesRoot,
  type MergeStatusDatum,
  type MergeStep,
  mergeStatusDatumSchema,
} from '../../../contract/model-config'
import { AppError } from '../../http/app-error'
import type { UploadedFile } from '../../http/define-route'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { BuildingService, StructureModel } from '../building/building.service'
import { extensionOf } from '../building/building-views'
import type { ConversionPool } from '../building/conversion-pool'
import { inspectSbm } from '../building/model-files'
import { readImageHeader } from '../images/image-header'
import type { JobKind, JobQueue } from '../jobs/job-queue'
import { type Clock, timestampOf } from '../time/clock'
import {
  baseOf,
  type MergeFile,
  type MergePlan,
  notImage,
  planMerge,
  refersTo,
} from './merge-inputs'
import {
  checkMapImages,
  createModelToSbm,
  errorItemOf,
  itemOf,
  readMergeFile,
  type SbmFloor,
} from './model-to-sbm'

/** What the structure merge is made from. */
export interface StructureMergeDependencies {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
  building: BuildingService
  conversions: ConversionPool
  jobs: JobQueue
  /** Where finished merges' ZIPs are kept (DATA_DIR/model-merges). */
  directory: string
}

/** The structure merge (`/modelConfig/merge`, SPEC §2, §5). */
export interface StructureMerges {
  /** Checks the inputs (every missing one named) and starts the merge as a job. */
  start(
    user: AuthUser,
    fields: {
      output_name?: string | undefined
      project_id?: string | undefined
      storey_height?: number | undefined
    },
    files: readonly UploadedFile[],
  ): Promise<MergeStatusDatum>
  /** A merge of this user: its steps while it runs, its result once it ended. */
  status(user: AuthUser, id: string): Promise<MergeStatusDatum>
  /** The ZIP of a finished merge (public by its random id, like converted models). */
  openResult(id: string): Promise<{ stream: Readable; sizeBytes: number; downloadName: string }>
  /** Waits for a merge's job to end (tests, shutdown). */
  settled(id: string): Promise<void>
}

interface Run {
  user: AuthUser
  projectId: string | null
  plan: MergePlan
  status: MergeStatusDatum
  done: Promise<void>
}

const mergeTimeLimitMs = 60 * 60_000
/** Runs kept in memory after they ended (the database keeps the finished ones). */
const keptRuns = 200

/**
 * The structure merge: a shell model, floor models, their maps, a preview and an output name
 * become one building structure (the manifest of contract/building.ts and one SBM per model),
 * packed as a ZIP to download and, when a project is named, installed into it in one
 * transaction. Inputs are checked before the job starts; each model is converted through the
 * conversion pool (one at a time: the user's queue is shared with other conversions), with the
 * maps beside it so the converter embeds those it refers to. Maps no model refers to are
 * reported and left out; a model the converter refuses stops the merge, and nothing is saved.
 */
export function createStructureMerges(dependencies: StructureMergeDependencies): StructureMerges {
  const { database, storage, clock, access, building, conversions, jobs, directory } = dependencies
  const runs = new Map<string, Run>()
  const now = () => timestampOf(clock.nowMs())

  const setStep = (run: Run, index: number, state: MergeStep['state']) => {
    const step = run.status.steps[index]
    if (!step) return
    step.state = state
    const done = run.status.steps.filter((candidate) => candidate.state === 'done').length
    run.status.progress = done / run.status.steps.length
  }

  const readFile = (file: MergeFile) => readMergeFile(storage, file)
  const convert = createModelToSbm({ storage, conversions })
  const modelToSbm = (
    run: Run,
    model: MergeFile,
    maps: Array<{ name: string; bytes: Uint8Array }>,
    role: 'shell' | 'floor',
    floor: SbmFloor | null,
    signal: AbortSignal,
  ) => convert(run.user.id, model, maps, role, floor, signal)

  const execute = async (run: Run, signal: AbortSignal) => {
    const { plan } = run
    const warnings: ServerMessage[] = []
    const readMaps = async (files: MergeFile[]) =>
      Promise.all(files.map(async (file) => ({ name: file.name, bytes: await readFile(file) })))
    const shellMaps = await readMaps(plan.shellMaps)
    const floorMaps = await readMaps(plan.floorMaps)
    const usedMaps = new Set<string>()
    const noteMaps = async (model: MergeFile, maps: Array<{ name: string }>) => {
      if (extensionOf(model.name) === 'sbm') return []
      const bytes = await readFile(model)
      const used = maps.filter((map) => refersTo(bytes, map.name)).map((map) => map.name)
      for (const name of used) usedMaps.add(name)
      return used
    }

    const shellFileName = (() => {
      const name = `${baseOf(plan.shell.name)}.sbm`
      const floorNames = new Set(plan.floors.map((floor) => `${baseOf(floor.name)}.sbm`))
      return floorNames.has(name) ? `shell-${name}` : name
    })()
    const models: StructureModel[] = []
    const merged: NonNullable<MergeStatusDatum['result']>['floors'] = []

    setStep(run, 0, 'running')
    await noteMaps(plan.shell, shellMaps)
    const shell = await modelToSbm(run, plan.shell, shellMaps, 'shell', null, signal)
    warnings.push(...shell.warnings)
    models.push({
      fileName: shellFileName,
      bytes: shell.bytes,
      info: inspectSbm(shellFileName, shell.bytes).info,
      preview: shell.preview,
    })
    setStep(run, 0, 'done')

    const manifestFloors: StructureManifest['floors'] = []
    for (const [index, floorFile] of plan.floors.entries()) {
      signal.throwIfAborted()
      setStep(run, index + 1, 'running')
      const name = baseOf(floorFile.name)
      const floor = { id: name, name, elevationMeters: index * plan.storeyHeightMeters }
      const used = await noteMaps(floorFile, floorMaps)
      const sbm = await modelToSbm(run, floorFile, floorMaps, 'floor', floor, signal)
      warnings.push(...sbm.warnings)
      const fileName = `${name}.sbm`
      const info = inspectSbm(fileName, sbm.bytes).info
      models.push({ fileName, bytes: sbm.bytes, info, preview: sbm.preview })
      manifestFloors.push({
        id: floor.id,
        name,
        elevation: floor.elevationMeters,
        model: fileName,
        maps: used,
      })
      merged.push({
        id: floor.id,
        name,
        elevation: floor.elevationMeters,
        model: fileName,
        triangleCount: info.triangleCount,
      })
      setStep(run, index + 1, 'done')
    }
    for (const map of [...plan.shellMaps, ...plan.floorMaps]) {
      if (!usedMaps.has(map.name))
        warnings.push({ id: 'modelConfig.mapUnused', params: { name: map.name } })
    }

    const structureStep = plan.floors.length + 1
    setStep(run, structureStep, 'running')
    const previewBytes = await readFile(plan.preview)
    const previewName = `preview.${extensionOf(plan.preview.name) === 'png' ? 'png' : 'jpg'}`
    const manifest: StructureManifest = {
      version: 1,
      kind: 'building',
      name: plan.outputName,
      shell: { model: shellFileName },
      floors: manifestFloors,
      preview: previewName,
    }
    const entries: Record<string, Uint8Array> = {
      [`${plan.outputName}.json`]: new TextEncoder().encode(JSON.stringify(manifest, null, 2)),
      [previewName]: previewBytes,
    }
    for (const model of models) entries[model.fileName] = model.bytes
    // SBMs are meshopt-packed already: a light deflate is all that pays
    const zip = zipSync(entries, { level: 1 })
    await mkdir(directory, { recursive: true })
    const id = run.status.id
    const partial = join(directory, `${id}.zip.part`)
    await writeFile(partial, zip)
    setStep(run, structureStep, 'done')

    if (run.projectId !== null) {
      setStep(run, structureStep + 1, 'running')
      await building.installStructure(run.user, run.projectId, { manifest, models })
      setStep(run, structureStep + 1, 'done')
    }
    await rename(partial, join(directory, `${id}.zip`))
    run.status.warnings = warnings.map(itemOf)
    run.status.result = {
      downloadPath: `${mergeFilesRoot}${id}.zip`,
      downloadName: `${plan.outputName}.zip`,
      sizeBytes: zip.byteLength,
      shellModel: shellFileName,
      floors: merged,
      projectId: run.projectId,
    }
    run.status.progress = 1
    run.status.state = 'succeeded'
    await database.db
      .insertInto('model_merges')
      .values({
        id,
        owner_id: run.user.id,
        output_name: plan.outputName,
        project_id: run.projectId,
        size_bytes: zip.byteLength,
        status_json: JSON.stringify(run.status),
        created_at: run.status.createdAt,
      })
      .execute()
  }

  const mergeKind: JobKind<Run, void> = {
    name: 'modelConfig.merge',
    // it mostly waits on the conversions ('cpu' jobs of the same user); holding a 'cpu' slot
    // while waiting for one would stall itself
    lane: 'io',
    timeLimitMs: mergeTimeLimitMs,
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
    async start(user, fields, files) {
      const sources = files.map((file) => file.sha256)
      let plan: MergePlan
      try {
        plan = planMerge(fields, files)
        if (fields.project_id !== undefined) await access.requireEditable(user, fields.project_id)
        // images are measured before anything converts: a map or preview that is not one, or
        // declares more pixels than a texture may have, refuses the merge at once
        await checkMapImages(storage, [
          ['shell_maps', plan.shellMaps],
          ['floor_maps', plan.floorMaps],
        ])
        const preview = readImageHeader(await readFile(plan.preview))
        if (!preview || (preview.format !== 'png' && preview.format !== 'jpeg')) {
          throw notImage('preview', 'modelConfig.previewNotImage', plan.preview.name)
        }
      } catch (error) {
        await building.releaseUnused(sources)
        throw error
      }
      const id = randomUUID()
      const steps: MergeStep[] = [
        { kind: 'shell', name: plan.shell.name, state: 'waiting' },
        ...plan.floors.map((floor) => ({
          kind: 'floor' as const,
          name: floor.name,
          state: 'waiting' as const,
        })),
        { kind: 'structure', name: `${plan.outputName}.zip`, state: 'waiting' },
        ...(fields.project_id === undefined
          ? []
          : [{ kind: 'install' as const, name: plan.outputName, state: 'waiting' as const }]),
      ]
      const run: Run = {
        user,
        projectId: fields.project_id ?? null,
        plan,
        status: {
          id,
          outputName: plan.outputName,
          state: 'queued',
          progress: 0,
          steps,
          error: null,
          warnings: [],
          result: null,
          createdAt: now(),
        },
        done: Promise.resolve(),
      }
      const job = jobs.submit(mergeKind, user.id, run)
      runs.set(id, run)
      run.done = job.result
        .then(
          () => undefined,
          (error: unknown) => {
            run.status.state = 'failed'
            run.status.error = errorItemOf(error)
            const running = run.status.steps.find((step) => step.state === 'running')
            if (running) running.state = 'failed'
          },
        )
        .finally(async () => {
          // the sources were only the converter's input; the result is the ZIP (and the project)
          await building.releaseUnused(sources).catch(() => undefined)
          forget()
        })
      if (job.status().state === 'failed') {
        // refused at once (the user's or the server's queue is full): nothing was started
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
      if (run) {
        if (run.user.id !== user.id) throw new AppError('notFound', 'modelConfig.noSuchMerge')
        return structuredClone(run.status)
      }
      const row = await database.db
        .selectFrom('model_merges')
        .selectAll()
        .where('id', '=', id)
        .where('owner_id', '=', user.id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'modelConfig.noSuchMerge')
      return mergeStatusDatumSchema.parse(JSON.parse(row.status_json))
    },

    async openResult(id) {
      const row = await database.db
        .selectFrom('model_merges')
        .select(['output_name'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'file.notFound')
      const path = join(directory, `${id}.zip`)
      const size = await stat(path).catch(() => undefined)
      if (!size) throw new AppError('notFound', 'file.notFound')
      return {
        stream: createReadStream(path),
        sizeBytes: size.size,
        downloadName: `${row.output_name}.zip`,
      }
    },

    async settled(id) {
      await runs.get(id)?.done
    },
  }
}
