import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { copyNameOf, type copySuffixes } from '../../../contract/project'

/** The languages a copy's name suffix exists in. */
type CopySuffixLanguage = keyof typeof copySuffixes
import {
  type CreateTemplateBody,
  categoryRootIds,
  type Template,
  type TemplateLevel,
  type TemplateListItem,
  type TemplatePage,
  type TemplatePageBody,
  type UpdateTemplateBody,
} from '../../../contract/templates'
import type { z } from 'zod'
import type {
  copyTemplateBodySchema,
  createMultiLevelTemplateBodySchema,
  createTemplateBodySchema,
  saveMultiLevelTemplateBodySchema,
  templatePageBodySchema,
  updateTemplateBodySchema,
} from '../../../contract/templates'
import { AppError, fieldError } from '../../http/app-error'
import { type Database, type DatabaseHandle, isUniqueViolation } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { AuthUser } from '../accounts/users.service'
import type { TemplateModelsService } from '../template-files/template-models.service'
import type { CategoryTree } from './category-tree'
import type { CategoriesService } from './categories.service'
import {
  canEditTemplate,
  checkImagePath,
  loadEditableTemplate,
  loadVisibleTemplate,
  resolveCategoryPath,
  type TemplateRow,
} from './template-access'
import { containsPattern, type GramFilter, gramFilter, writeGrams } from './template-search'
import { libraryTemplateNameKey, nameKeyField } from './library-names'

type CreateInput = z.output<typeof createTemplateBodySchema>
type CreateMultiLevelInput = z.output<typeof createMultiLevelTemplateBodySchema>
type SaveMultiLevelInput = z.output<typeof saveMultiLevelTemplateBodySchema>
type UpdateInput = z.output<typeof updateTemplateBodySchema>
type CopyInput = z.output<typeof copyTemplateBodySchema>
type PageInput = z.output<typeof templatePageBodySchema>

/** Templates: create (simple, multi-level), change, list and search, copy, delete. */
export interface TemplatesService {
  find(user: AuthUser, id: string): Promise<Template>
  create(user: AuthUser, input: CreateInput): Promise<Template>
  createMultiLevel(user: AuthUser, input: CreateMultiLevelInput): Promise<Template>
  saveMultiLevel(user: AuthUser, input: SaveMultiLevelInput): Promise<Template>
  update(user: AuthUser, input: UpdateInput): Promise<Template>
  page(
    user: AuthUser,
    input: PageInput,
    paging: { pageNo: number; pageSize: number },
  ): Promise<TemplatePage>
  copy(user: AuthUser, input: CopyInput, language: CopySuffixLanguage): Promise<Template>
  remove(user: AuthUser, id: string): Promise<{ deleted: number }>
}

/** Most project names an "in use" message lists before '…'. */
const maxNamedProjects = 10

/** The fields a template keeps of its 3D model: what the model's upload answered. */
type ModelFields = Pick<
  TemplateRow,
  'category_zip_uuid' | 'file_path' | 'jpg_name' | 'xml_name' | 'glbf_name'
>

/** The file fields as sent, else as they were (`fallback`), else ''. */
const pickFiles = (
  input: Partial<Omit<ModelFields, 'category_zip_uuid'>>,
  fallback: Omit<ModelFields, 'category_zip_uuid'> | null,
): Omit<ModelFields, 'category_zip_uuid'> => ({
  file_path: input.file_path ?? fallback?.file_path ?? '',
  jpg_name: input.jpg_name ?? fallback?.jpg_name ?? '',
  xml_name: input.xml_name ?? fallback?.xml_name ?? '',
  glbf_name: input.glbf_name ?? fallback?.glbf_name ?? '',
})

/** The one non-upload icon a template may show: its own model's preview (3D only). */
const modelPreviewPathOf = (
  row: Pick<TemplateRow, 'type' | 'category_zip_uuid' | 'file_path' | 'jpg_name'>,
) => (row.type === '3D' && row.category_zip_uuid !== '' ? `${row.file_path}${row.jpg_name}` : null)

/** Builds the service; the SQL of `poi_templates` (and their grams) lives here. */
export function createTemplatesService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  categories: CategoriesService
  /** Checks a template's `category_zip_uuid` names a model its owner may use. */
  templateModels: Pick<TemplateModelsService, 'findUsable'>
}): TemplatesService {
  const { database, categories, templateModels } = dependencies
  const { db } = database
  const now = () => timestampOf(dependencies.clock.nowMs())

  /** Names of the projects whose POIs use each template (only the user's, unless an admin). */
  const projectNamesOf = async (handle: Database, user: AuthUser, ids: readonly string[]) => {
    const names = new Map<string, string[]>()
    if (ids.length === 0) return names
    let query = handle
      .selectFrom('pois')
      .innerJoin('projects', 'projects.id', 'pois.project_id')
      .select(['pois.category_id as template_id', 'projects.name as name'])
      .where('pois.category_id', 'in', [...ids])
      .groupBy(['pois.category_id', 'projects.name'])
      .orderBy('projects.name')
    if (user.role !== 'admin') query = query.where('projects.owner_id', '=', user.id)
    for (const row of await query.execute()) {
      const list = names.get(row.template_id)
      if (list) list.push(row.name)
      else names.set(row.template_id, [row.name])
    }
    return names
  }

  const toTemplate = (user: AuthUser, row: TemplateRow, projectNames: string[]): Template => ({
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    ...nameKeyField(libraryTemplateNameKey(row)),
    poicategory_code: row.poicategory_code,
    piddes: row.piddes,
    category_id: row.category_id,
    type: row.type,
    iconpath: row.iconpath,
    icon_path: row.iconpath,
    category_zip_uuid: row.category_zip_uuid,
    bgtype: row.bgtype,
    template_type: row.template_type,
    use_shadow_editor_render: row.use_shadow_editor_render === 1,
    is_iot_device: row.is_iot_device === 1,
    projectInfoAllCustoms: JSON.parse(row.levels_json) as TemplateLevel[],
    refProjectNameList: projectNames,
    file_path: row.file_path,
    jpg_name: row.jpg_name,
    xml_name: row.xml_name,
    glbf_name: row.glbf_name,
    is_system: row.owner_id === '',
    can_edit: canEditTemplate(user, row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  })

  const answer = async (user: AuthUser, row: TemplateRow) =>
    toTemplate(user, row, (await projectNamesOf(db, user, [row.id])).get(row.id) ?? [])

  const toListItem = (
    user: AuthUser,
    row: TemplateRow,
    tree: CategoryTree,
    projectNames: string[],
  ): TemplateListItem => ({
    ...toTemplate(user, row, projectNames),
    classify: row.type,
    category: tree.namePathOf(row.category_id),
    category_path: tree.namePathStepsOf(row.category_id),
    encoding: row.poicategory_code,
  })

  const checkCodeFree = async (
    handle: Database,
    ownerId: string,
    code: string,
    selfId?: string,
  ) => {
    const taken = await handle
      .selectFrom('poi_templates')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('poicategory_code', '=', code)
      .executeTakeFirst()
    if (taken && taken.id !== selfId) {
      throw fieldError('conflict', 'poicategory_code', 'template.codeTaken', { code })
    }
  }

  /**
   * The model files of `category_zip_uuid` when it names a model the user may use (their own, a
   * system one; admins any), taken from the model itself so a template never points at files
   * of another model; another user's or an unknown uuid is refused. Read before any
   * transaction: the check reads the models' table through the service.
   */
  const modelFieldsOf = async (user: AuthUser, uuid: string): Promise<ModelFields> => {
    if (uuid === '') {
      return { category_zip_uuid: '', file_path: '', jpg_name: '', xml_name: '', glbf_name: '' }
    }
    try {
      const model = await templateModels.findUsable(user, uuid)
      return {
        category_zip_uuid: model.uuid,
        file_path: model.rootPath,
        jpg_name: model.jpgName,
        xml_name: model.xmlName,
        glbf_name: model.sbmName,
      }
    } catch (error) {
      if (error instanceof AppError && error.kind === 'notFound') {
        throw fieldError('validation', 'category_zip_uuid', 'templateModel.notFound')
      }
      throw error
    }
  }

  /** SPEC §5: a simple template needs its icon; a multi-level one its levels (the schema's job). */
  const checkComplete = (row: Pick<TemplateRow, 'template_type' | 'iconpath'>) => {
    if (row.template_type === '0' && row.iconpath === '') {
      throw fieldError('validation', 'iconpath', 'template.fillBasic')
    }
  }

  const insert = async (
    user: AuthUser,
    input: CreateInput,
    levels: TemplateLevel[] | null,
  ): Promise<TemplateRow> => {
    const ownerId = user.id
    // a model's files come from the model; without one, the fields are kept as sent
    const model =
      input.category_zip_uuid === '' ? null : await modelFieldsOf(user, input.category_zip_uuid)
    try {
      return await db.transaction().execute(async (transaction) => {
        const path = await resolveCategoryPath(transaction, ownerId, input.piddes)
        const files: ModelFields = model ?? {
          category_zip_uuid: '',
          file_path: input.file_path,
          jpg_name: input.jpg_name,
          xml_name: input.xml_name,
          glbf_name: input.glbf_name,
        }
        await checkImagePath(transaction, user, 'iconpath', input.iconpath, {
          modelPreviewPath: modelPreviewPathOf({ type: path.type, ...files }),
        })
        await checkCodeFree(transaction, ownerId, input.poicategory_code)
        const timestamp = now()
        const row: TemplateRow = {
          id: randomUUID(),
          owner_id: ownerId,
          uuid: input.uuid ?? randomUUID(),
          name: input.name,
          poicategory_code: input.poicategory_code,
          ...path,
          iconpath: input.iconpath,
          bgtype: input.bgtype,
          template_type: levels === null ? '0' : '1',
          use_shadow_editor_render: input.use_shadow_editor_render ? 1 : 0,
          is_iot_device: input.is_iot_device ? 1 : 0,
          levels_json: JSON.stringify(levels ?? []),
          ...files,
          created_at: timestamp,
          updated_at: timestamp,
        }
        checkComplete(row)
        await transaction.insertInto('poi_templates').values(row).execute()
        await writeGrams(transaction, row)
        return row
      })
    } catch (error) {
      // two saves racing for one code: the unique index decides, the loser is told why
      if (isUniqueViolation(error)) {
        throw fieldError('conflict', 'poicategory_code', 'template.codeTaken', {
          code: input.poicategory_code,
        })
      }
      throw error
    }
  }

  const update = async (
    user: AuthUser,
    input: UpdateInput & { projectInfoAllCustoms?: TemplateLevel[] | undefined },
  ) => {
    // a changed model is checked (and its files taken) before the transaction
    const stored = await db
      .selectFrom('poi_templates')
      .select('category_zip_uuid')
      .where('id', '=', input.id)
      .executeTakeFirst()
    const model =
      input.category_zip_uuid === undefined ||
      stored === undefined ||
      input.category_zip_uuid === stored.category_zip_uuid
        ? null
        : await modelFieldsOf(user, input.category_zip_uuid)
    try {
      const row = await db.transaction().execute(async (transaction) => {
        const current = await loadEditableTemplate(transaction, user, input.id)
        if (input.projectInfoAllCustoms !== undefined && current.template_type !== '1') {
          throw fieldError('validation', 'projectInfoAllCustoms', 'template.notMultiLevel')
        }
        const path =
          input.piddes === undefined || input.piddes === current.piddes
            ? { piddes: current.piddes, category_id: current.category_id, type: current.type }
            : await resolveCategoryPath(transaction, current.owner_id, input.piddes)
        const iconpath = input.iconpath ?? current.iconpath
        const files: ModelFields =
          model ??
          (current.category_zip_uuid !== '' && input.category_zip_uuid !== ''
            ? // the model stays: so do its files
              {
                category_zip_uuid: current.category_zip_uuid,
                file_path: current.file_path,
                jpg_name: current.jpg_name,
                xml_name: current.xml_name,
                glbf_name: current.glbf_name,
              }
            : // no model: the file fields are as sent (a dropped model's files go with it)
              {
                category_zip_uuid: '',
                ...pickFiles(input, current.category_zip_uuid === '' ? current : null),
              })
        if (
          iconpath !== current.iconpath ||
          path.type !== current.type ||
          files.category_zip_uuid !== current.category_zip_uuid
        ) {
          await checkImagePath(transaction, user, 'iconpath', iconpath, {
            modelPreviewPath: modelPreviewPathOf({ type: path.type, ...files }),
          })
        }
        const code = input.poicategory_code ?? current.poicategory_code
        if (code !== current.poicategory_code) {
          await checkCodeFree(transaction, current.owner_id, code, current.id)
        }
        const next: TemplateRow = {
          ...current,
          ...path,
          name: input.name ?? current.name,
          poicategory_code: code,
          iconpath,
          uuid: input.uuid ?? current.uuid,
          bgtype: input.bgtype ?? current.bgtype,
          use_shadow_editor_render:
            input.use_shadow_editor_render === undefined
              ? current.use_shadow_editor_render
              : input.use_shadow_editor_render
                ? 1
                : 0,
          is_iot_device:
            input.is_iot_device === undefined ? current.is_iot_device : input.is_iot_device ? 1 : 0,
          levels_json:
            input.projectInfoAllCustoms === undefined
              ? current.levels_json
              : JSON.stringify(input.projectInfoAllCustoms),
          ...files,
          updated_at: now(),
        }
        checkComplete(next)
        const { id, owner_id, created_at, ...changes } = next
        await transaction.updateTable('poi_templates').set(changes).where('id', '=', id).execute()
        if (next.name !== current.name || code !== current.poicategory_code) {
          await writeGrams(transaction, next)
        }
        // POIs carry their template's code: keep them in step
        if (code !== current.poicategory_code) {
          await transaction
            .updateTable('pois')
            .set({ poicategory_code: code })
            .where('category_id', '=', id)
            .execute()
        }
        return next
      })
      return answer(user, row)
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw fieldError('conflict', 'poicategory_code', 'template.codeTaken', {
          code: input.poicategory_code ?? '',
        })
      }
      throw error
    }
  }

  /** A page of one owner set, newest first, using the (owner, created_at) index. */
  const pageQuery = (
    handle: Database,
    ownerIds: string[],
    input: PageInput,
    categoryIds: string[] | undefined,
    gram: GramFilter,
  ) => {
    let query = handle.selectFrom('poi_templates')
    // candidates of a rare gram are already the owners' own; naming the owner again would
    // tempt the planner into walking the owner index instead of a few primary-key lookups
    if (gram.kind !== 'ids') query = query.where('owner_id', 'in', ownerIds)
    if (input.type !== undefined) query = query.where('type', '=', input.type)
    if (input.template_type !== undefined)
      query = query.where('template_type', '=', input.template_type)
    if (categoryIds !== undefined) query = query.where('category_id', 'in', categoryIds)
    if (input.keyword) {
      const pattern = containsPattern(input.keyword)
      if (gram.kind === 'ids') {
        // no candidate: nothing matches (an empty IN list is not valid SQL)
        query = query.where('id', 'in', gram.ids.length === 0 ? [''] : gram.ids)
      } else if (gram.kind === 'gram') {
        const common = gram.gram
        query = query.where('id', 'in', (eb) =>
          eb
            .selectFrom('poi_template_grams')
            .select('template_id')
            .where('owner_id', 'in', ownerIds)
            .where('gram', '=', common),
        )
      }
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(poicategory_code)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      )
    }
    return query
  }

  const service: TemplatesService = {
    async find(user, id) {
      return answer(user, await loadVisibleTemplate(db, user, id))
    },

    async create(user, input) {
      return answer(user, await insert(user, input, null))
    },

    async createMultiLevel(user, input) {
      return answer(user, await insert(user, input, input.projectInfoAllCustoms))
    },

    async saveMultiLevel(user, input) {
      if (input.id === undefined) return service.createMultiLevel(user, input)
      const current = await loadEditableTemplate(db, user, input.id)
      if (current.template_type !== '1') {
        throw fieldError('validation', 'id', 'template.notMultiLevel')
      }
      return update(user, { ...input, id: input.id })
    },

    update: (user, input) => update(user, input),

    async page(user, input, paging) {
      const ownerIds =
        input.scope === 'own' ? [user.id] : input.scope === 'system' ? [''] : ['', user.id]
      const tree = await categories.treeOf(user.id)
      let categoryIds: string[] | undefined
      if (input.category_id !== undefined) {
        if (!tree.byId.has(input.category_id)) {
          throw fieldError('notFound', 'category_id', 'template.categoryNotFound')
        }
        categoryIds = tree.subtreeIds(input.category_id)
      }
      const gram: GramFilter = input.keyword
        ? await gramFilter(db, ownerIds, input.keyword)
        : { kind: 'none' }
      const limit = paging.pageSize
      const offset = (paging.pageNo - 1) * paging.pageSize
      const newestFirst = (a: TemplateRow, b: TemplateRow) =>
        b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)
      let merged: TemplateRow[]
      let total: number
      if (gram.kind === 'ids') {
        // a rare gram: at most a few hundred candidates, read by primary key and sorted here
        // (ordering in SQL would tempt the planner into walking the whole owner index)
        const rows = await pageQuery(db, ownerIds, input, categoryIds, gram).selectAll().execute()
        total = rows.length
        merged = rows.sort(newestFirst).slice(offset, offset + limit)
      } else {
        // One query per owner so each reads its index in order and stops at the page; the two
        // ordered runs are merged here (a single `owner_id in (…)` query would sort them all).
        const runs = await Promise.all(
          ownerIds.map(async (ownerId) => {
            const base = pageQuery(db, [ownerId], input, categoryIds, gram)
            const [rows, count] = await Promise.all([
              base
                .selectAll()
                .orderBy('owner_id', 'desc')
                .orderBy('created_at', 'desc')
                .orderBy('id', 'desc')
                .limit(offset + limit)
                .execute(),
              base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
            ])
            return { rows, total: Number(count.count) }
          }),
        )
        total = runs.reduce((sum, run) => sum + run.total, 0)
        merged = runs
          .flatMap((run) => run.rows)
          .sort(newestFirst)
          .slice(offset, offset + limit)
      }
      const names = await projectNamesOf(
        db,
        user,
        merged.map((row) => row.id),
      )
      return {
        list: merged.map((row) => toListItem(user, row, tree, names.get(row.id) ?? [])),
        total,
        pageNo: paging.pageNo,
        pageSize: paging.pageSize,
      }
    },

    async copy(user, input, language) {
      const source = await loadVisibleTemplate(db, user, input.id)
      const tree = await categories.treeOf(user.id)
      const row = await db.transaction().execute(async (transaction) => {
        // a path the new owner cannot see (an admin copying a user's template) falls back to its root
        const piddes =
          tree.pathOf(source.category_id)?.join(',') === source.piddes
            ? source.piddes
            : source.type === '3D'
              ? categoryRootIds.threeD
              : categoryRootIds.twoD
        let code = input.poicategory_code
        if (code === undefined) {
          const taken = new Set(
            (
              await transaction
                .selectFrom('poi_templates')
                .select('poicategory_code')
                .where('owner_id', '=', user.id)
                .where(
                  'poicategory_code',
                  'like',
                  `${source.poicategory_code.replace(/[\\%_]/g, (c) => `\\${c}`)}-copy%`,
                )
                .execute()
            ).map((taken) => taken.poicategory_code),
          )
          const ownCode = await transaction
            .selectFrom('poi_templates')
            .select('id')
            .where('owner_id', '=', user.id)
            .where('poicategory_code', '=', source.poicategory_code)
            .executeTakeFirst()
          code = ownCode ? `${source.poicategory_code}-copy` : source.poicategory_code
          for (let index = 2; taken.has(code); index += 1)
            code = `${source.poicategory_code}-copy${index}`
        } else {
          await checkCodeFree(transaction, user.id, code)
        }
        const timestamp = now()
        const copy: TemplateRow = {
          ...source,
          id: randomUUID(),
          owner_id: user.id,
          uuid: randomUUID(),
          name: input.name ?? copyNameOf(source.name, language),
          poicategory_code: code,
          piddes,
          category_id: piddes.split(',').at(-1)!,
          created_at: timestamp,
          updated_at: timestamp,
        }
        await transaction.insertInto('poi_templates').values(copy).execute()
        await writeGrams(transaction, copy)
        const properties = await transaction
          .selectFrom('poi_template_properties')
          .selectAll()
          .where('template_id', '=', source.id)
          .execute()
        for (const property of properties) {
          await transaction
            .insertInto('poi_template_properties')
            .values({ ...property, id: randomUUID(), template_id: copy.id, created_at: timestamp })
            .execute()
        }
        const labels = await transaction
          .selectFrom('poi_template_labels')
          .selectAll()
          .where('template_id', '=', source.id)
          .execute()
        for (const label of labels) {
          await transaction
            .insertInto('poi_template_labels')
            .values({ ...label, id: randomUUID(), template_id: copy.id, created_at: timestamp })
            .execute()
        }
        const events = await transaction
          .selectFrom('poi_template_events')
          .selectAll()
          .where('template_id', '=', source.id)
          .execute()
        for (const event of events) {
          await transaction
            .insertInto('poi_template_events')
            .values({ ...event, template_id: copy.id })
            .execute()
        }
        return copy
      })
      return answer(user, row)
    },

    async remove(user, id) {
      return db.transaction().execute(async (transaction) => {
        const row = await loadEditableTemplate(transaction, user, id)
        const used = await transaction
          .selectFrom('pois')
          .innerJoin('projects', 'projects.id', 'pois.project_id')
          .select('projects.name as name')
          .where('pois.category_id', '=', row.id)
          .groupBy('projects.name')
          .orderBy('projects.name')
          .limit(maxNamedProjects + 1)
          .execute()
        // POIs whose project is gone still hold the template
        const orphan =
          used.length === 0
            ? await transaction
                .selectFrom('pois')
                .select('id')
                .where('category_id', '=', row.id)
                .executeTakeFirst()
            : undefined
        if (used.length > 0 || orphan) {
          const names = used.slice(0, maxNamedProjects).map((project) => project.name)
          if (used.length > maxNamedProjects) names.push('…')
          throw new AppError('conflict', 'template.inUse', { projects: names.join(', ') || '-' })
        }
        for (const table of [
          'poi_template_properties',
          'poi_template_labels',
          'poi_template_events',
          'poi_template_grams',
        ] as const) {
          await transaction.deleteFrom(table).where('template_id', '=', row.id).execute()
        }
        await transaction.deleteFrom('poi_templates').where('id', '=', row.id).execute()
        return { deleted: 1 }
      })
    },
  }
  return service
}

export type { CreateTemplateBody, TemplatePageBody, UpdateTemplateBody }
