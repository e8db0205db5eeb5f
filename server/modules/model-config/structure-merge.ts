import { randomUUID } from 'node:crypto'
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
import type { FileStorage, NamedFiles } from '../../plugins/storage'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { SweepTask } from '../files/folder-sweeper'
import { storeSweep } from '../files/store-sweep'
import type { BuildingService, StructureModel } from '../building/building.service'
import { extensionOf } from '../building/building-views'
import type { ConversionPool } from '../building/conversion-pool'
import { readImageHeader } from '../images/image-header'
import type { JobQueue } from '../jobs/job-queue'
import { type Clock, timestampOf } from '../time/clock'
import { baseOf, type MergeFile, type MergePlan, notImage, planMerge } from './merge-inputs'
import { checkMapImages, createModelToSbm, itemOf, readMergeFile } from './model-to-sbm'
import {
  checkedOrReleased,
  createMapUse,
  createStructureJobs,
  type StructureJobContext,
  type StructureJobRun,
  structureModelOf,
} from './structure-jobs'

/** A merge's ZIP in the model-merges area, or the part file earlier versions wrote first. */
const storedNamePattern =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.zip(\.part)?$/
/** A ZIP is stored just before its row: a younger one may be a running merge's. */
const unreferencedMinimumAgeMs = 3_600_000

/** The name of a merge's ZIP in the store's model-merges area. */
function resultName(id: string): string {
  return `${id}.zip`
}

/** What the structure merge is made from. */
export interface StructureMergeDependencies {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
  building: BuildingService
  conversions: ConversionPool
  jobs: JobQueue
  /**
   * The store's model-merges area, where finished merges' ZIPs are kept as `<id>.zip`
   * (DATA_DIR/model-merges on a folder, as before, or the bucket's `model-merges/`).
   */
  files: NamedFiles
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
  /**
   * The ZIP of a finished merge (public by its random id, like converted models): its name in
   * the model-merges area and the name it downloads under.
   */
  resultFile(id: string): Promise<{ name: string; downloadName: string }>
  /** What the sweeper removes: ZIPs no finished merge names (a run cut short after writing). */
  sweepTask(): SweepTask
  /** Waits for a merge's job to end (tests, shutdown). */
  settled(id: string): Promise<void>
}

interface Run extends StructureJobRun<MergeStatusDatum> {
  projectId: string | null
  plan: MergePlan
}

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
  const { database, storage, clock, access, building, conversions, jobs, files } = dependencies
  const now = () => timestampOf(clock.nowMs())
  const readFile = (file: MergeFile) => readMergeFile(storage, file)
  const convert = createModelToSbm({ storage, conversions })

  const execute = async (run: Run, { signal, step: mark }: StructureJobContext) => {
    const { plan } = run
    const warnings: ServerMessage[] = []
    // the merge takes an SBM as it is: maps given with it are not baked into it
    const mapUse = createMapUse(storage, { isSbmScanned: false })
    const shellMaps = await mapUse.read(plan.shellMaps)
    const floorMaps = await mapUse.read(plan.floorMaps)

    const shellFileName = (() => {
      const name = `${baseOf(plan.shell.name)}.sbm`
      const floorNames = new Set(plan.floors.map((floor) => `${baseOf(floor.name)}.sbm`))
      return floorNames.has(name) ? `shell-${name}` : name
    })()
    const models: StructureModel[] = []
    const merged: NonNullable<MergeStatusDatum['result']>['floors'] = []

    await mark(0, 'running')
    await mapUse.note(plan.shell, shellMaps)
    const shell = await convert(run.user.id, plan.shell, shellMaps, 'shell', null, signal)
    warnings.push(...shell.warnings)
    models.push(structureModelOf(shellFileName, shell))
    await mark(0, 'done')

    const manifestFloors: StructureManifest['floors'] = []
    for (const [index, floorFile] of plan.floors.entries()) {
      signal.throwIfAborted()
      await mark(index + 1, 'running')
      const name = baseOf(floorFile.name)
      const floor = { id: name, name, elevationMeters: index * plan.storeyHeightMeters }
      const used = await mapUse.note(floorFile, floorMaps)
      const sbm = await convert(run.user.id, floorFile, floorMaps, 'floor', floor, signal)
      warnings.push(...sbm.warnings)
      const fileName = `${name}.sbm`
      const model = structureModelOf(fileName, sbm)
      const { info } = model
      models.push(model)
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
      await mark(index + 1, 'done')
    }
    warnings.push(...mapUse.unusedWarnings([...plan.shellMaps, ...plan.floorMaps]))

    const structureStep = plan.floors.length + 1
    await mark(structureStep, 'running')
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
    const id = run.status.id
    await mark(structureStep, 'done')

    if (run.projectId !== null) {
      await mark(structureStep + 1, 'running')
      await building.installStructure(run.user, run.projectId, { manifest, models })
      await mark(structureStep + 1, 'done')
    }
    // stored once the merge has succeeded (a failed install leaves no ZIP), whole or not at all
    await files.write(resultName(id), zip, { durable: true })
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

  const merges = createStructureJobs<Run>({
    name: 'modelConfig.merge',
    jobs,
    database,
    clock,
    building,
    statusSchema: mergeStatusDatumSchema,
    execute,
  })

  return {
    async start(user, fields, files) {
      const sources = files.map((file) => file.sha256)
      const plan = await checkedOrReleased(building, sources, async () => {
        const checked = planMerge(fields, files)
        if (fields.project_id !== undefined) await access.requireEditable(user, fields.project_id)
        // images are measured before anything converts: a map or preview that is not one, or
        // declares more pixels than a texture may have, refuses the merge at once
        await checkMapImages(storage, [
          ['shell_maps', checked.shellMaps],
          ['floor_maps', checked.floorMaps],
        ])
        const preview = readImageHeader(await readFile(checked.preview))
        if (!preview || (preview.format !== 'png' && preview.format !== 'jpeg')) {
          throw notImage('preview', 'modelConfig.previewNotImage', checked.preview.name)
        }
        return checked
      })
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
      // the sources are only the converter's input; the result is the ZIP (and the project)
      return merges.submit(run, sources)
    },

    async status(user, id) {
      const written = await merges.status(user.id, id)
      if (written) return written
      // a day after, a finished merge still answers from its result's row
      const row = await database.db
        .selectFrom('model_merges')
        .selectAll()
        .where('id', '=', id)
        .where('owner_id', '=', user.id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'modelConfig.noSuchMerge')
      return mergeStatusDatumSchema.parse(JSON.parse(row.status_json))
    },

    async resultFile(id) {
      const row = await database.db
        .selectFrom('model_merges')
        .select(['output_name'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'file.notFound')
      return { name: resultName(id), downloadName: `${row.output_name}.zip` }
    },

    sweepTask: () =>
      storeSweep(
        {
          label: 'structure merge ZIPs no merge names',
          entryOf: (name) => storedNamePattern.exec(name)?.[1],
          isUnfinished: (name) => name.endsWith('.part'),
          minimumAgeMs: unreferencedMinimumAgeMs,
          isCrashLeftover: true,
          async keep(ids) {
            const rows = await database.db
              .selectFrom('model_merges')
              .select('id')
              .where('id', 'in', ids)
              .execute()
            return new Set(rows.map((row) => row.id))
          },
        },
        files,
      ),

    settled: (id) => merges.settled(id),
  }
}
