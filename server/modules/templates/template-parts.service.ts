import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import {
  type CreatePropertyBody,
  type TemplateEvent,
  type TemplateLabel,
  type TemplateLabels,
  type TemplateProperty,
  templateEventKinds,
  templateLimits,
  type UpdatePropertyBody,
  type updateEventsBodySchema,
} from '../../../contract/templates'
import { AppError, fieldError } from '../../http/app-error'
import { type Database, type DatabaseHandle, isUniqueViolation } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { AuthUser } from '../accounts/users.service'
import { checkImagePath, loadEditableTemplate, loadVisibleTemplate } from './template-access'

/** The field a new label's key arrives in (`label.labelKey`, SPEC §7 creatPoiCategoryLabel). */
const createLabelField = ['label', 'labelKey'].join('.')

type EventsInput = z.output<typeof updateEventsBodySchema>['events']

/** What a template is made of besides its basic fields: static attributes, labels, events. */
export interface TemplatePartsService {
  properties(user: AuthUser, templateId: string): Promise<TemplateProperty[]>
  createProperty(user: AuthUser, input: Required<CreatePropertyBody>): Promise<TemplateProperty>
  updateProperty(user: AuthUser, input: UpdatePropertyBody): Promise<TemplateProperty>
  deleteProperty(user: AuthUser, id: string): Promise<void>
  labels(user: AuthUser, templateId: string): Promise<TemplateLabels>
  createLabel(user: AuthUser, templateId: string, labelKey: string): Promise<TemplateLabel>
  updateLabel(user: AuthUser, id: string, labelKey: string): Promise<TemplateLabel>
  /** `forever` false moves the label into the history; true removes it altogether. */
  deleteLabel(user: AuthUser, id: string, forever: boolean): Promise<void>
  events(user: AuthUser, templateId: string): Promise<TemplateEvent[]>
  updateEvents(user: AuthUser, templateId: string, events: EventsInput): Promise<TemplateEvent[]>
}

/** Builds the service; the SQL of the template's attribute, label and event tables lives here. */
export function createTemplatePartsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
}): TemplatePartsService {
  const { db } = dependencies.database
  const now = () => timestampOf(dependencies.clock.nowMs())

  const toProperty = (row: {
    id: string
    template_id: string
    property_column: string
    column_des: string
    column_example: string
    created_at: string
  }): TemplateProperty => ({
    id: row.id,
    poicategoryid: row.template_id,
    property_column: row.property_column,
    column_des: row.column_des,
    column_example: row.column_example,
    created_at: row.created_at,
  })

  const listProperties = (handle: Database, templateId: string) =>
    handle
      .selectFrom('poi_template_properties')
      .selectAll()
      .where('template_id', '=', templateId)
      .orderBy('created_at')
      .orderBy('property_column')
      .execute()

  /** A row of a template table, and its template if the user may change it. */
  const loadPropertyForEdit = async (handle: Database, user: AuthUser, id: string) => {
    const row = await handle
      .selectFrom('poi_template_properties')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw new AppError('notFound', 'template.propertyNotFound')
    // a property of a template the user cannot see is as unknown as a made-up one
    await loadVisibleTemplate(handle, user, row.template_id).catch(() => {
      throw new AppError('notFound', 'template.propertyNotFound')
    })
    await loadEditableTemplate(handle, user, row.template_id)
    return row
  }

  const loadLabelForEdit = async (handle: Database, user: AuthUser, id: string) => {
    const row = await handle
      .selectFrom('poi_template_labels')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw new AppError('notFound', 'template.labelNotFound')
    await loadVisibleTemplate(handle, user, row.template_id).catch(() => {
      throw new AppError('notFound', 'template.labelNotFound')
    })
    await loadEditableTemplate(handle, user, row.template_id)
    return row
  }

  const columnTaken = (column: string) =>
    fieldError('conflict', 'property_column', 'template.propertyColumnTaken', { column })

  const listEvents = async (handle: Database, templateId: string): Promise<TemplateEvent[]> => {
    const rows = await handle
      .selectFrom('poi_template_events')
      .selectAll()
      .where('template_id', '=', templateId)
      .execute()
    return templateEventKinds.map((kind) => {
      const row = rows.find((candidate) => candidate.kind === kind)
      return {
        kind,
        is_enabled: row?.is_enabled === 1,
        event_code: row?.event_code ?? '',
        event_image: row?.event_image ?? '',
      }
    })
  }

  return {
    async properties(user, templateId) {
      await loadVisibleTemplate(db, user, templateId)
      return (await listProperties(db, templateId)).map(toProperty)
    },

    async createProperty(user, input) {
      try {
        return await db.transaction().execute(async (transaction) => {
          await loadEditableTemplate(
            transaction,
            user,
            input.poicategoryid,
            'template.addBasicFirst',
          )
          const existing = await listProperties(transaction, input.poicategoryid)
          if (existing.some((row) => row.property_column === input.property_column)) {
            throw columnTaken(input.property_column)
          }
          if (existing.length >= templateLimits.maxProperties) {
            throw new AppError('conflict', 'template.tooManyProperties', {
              maximum: templateLimits.maxProperties,
            })
          }
          const row = {
            id: randomUUID(),
            template_id: input.poicategoryid,
            property_column: input.property_column,
            column_des: input.column_des,
            column_example: input.column_example,
            created_at: now(),
          }
          await transaction.insertInto('poi_template_properties').values(row).execute()
          return toProperty(row)
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw columnTaken(input.property_column)
        throw error
      }
    },

    async updateProperty(user, input) {
      try {
        return await db.transaction().execute(async (transaction) => {
          const row = await loadPropertyForEdit(transaction, user, input.id)
          const next = {
            ...row,
            property_column: input.property_column ?? row.property_column,
            column_des: input.column_des ?? row.column_des,
            column_example: input.column_example ?? row.column_example,
          }
          if (next.property_column !== row.property_column) {
            const taken = await transaction
              .selectFrom('poi_template_properties')
              .select('id')
              .where('template_id', '=', row.template_id)
              .where('property_column', '=', next.property_column)
              .executeTakeFirst()
            if (taken) throw columnTaken(next.property_column)
          }
          await transaction
            .updateTable('poi_template_properties')
            .set({
              property_column: next.property_column,
              column_des: next.column_des,
              column_example: next.column_example,
            })
            .where('id', '=', row.id)
            .execute()
          return toProperty(next)
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw columnTaken(input.property_column ?? '')
        throw error
      }
    },

    async deleteProperty(user, id) {
      await db.transaction().execute(async (transaction) => {
        await loadPropertyForEdit(transaction, user, id)
        await transaction.deleteFrom('poi_template_properties').where('id', '=', id).execute()
      })
    },

    async labels(user, templateId) {
      await loadVisibleTemplate(db, user, templateId)
      const rows = await db
        .selectFrom('poi_template_labels')
        .selectAll()
        .where('template_id', '=', templateId)
        .orderBy('created_at')
        .orderBy('label_key')
        .execute()
      const toLabel = (row: (typeof rows)[number]) => ({ id: row.id, labelKey: row.label_key })
      return {
        poicategoryLabels: rows.filter((row) => row.is_current === 1).map(toLabel),
        poicategoryHistoryLabels: rows.filter((row) => row.is_current === 0).map(toLabel),
      }
    },

    async createLabel(user, templateId, labelKey) {
      try {
        return await db.transaction().execute(async (transaction) => {
          await loadEditableTemplate(transaction, user, templateId, 'template.addBasicFirst')
          const rows = await transaction
            .selectFrom('poi_template_labels')
            .selectAll()
            .where('template_id', '=', templateId)
            .execute()
          const same = rows.find((row) => row.label_key === labelKey)
          if (same?.is_current === 1) {
            throw fieldError('conflict', createLabelField, 'template.labelTaken', {
              label: labelKey,
            })
          }
          if (same) {
            // a label from the history comes back as it was
            await transaction
              .updateTable('poi_template_labels')
              .set({ is_current: 1 })
              .where('id', '=', same.id)
              .execute()
            return { id: same.id, labelKey }
          }
          if (rows.length >= templateLimits.maxLabels) {
            throw new AppError('conflict', 'template.tooManyLabels', {
              maximum: templateLimits.maxLabels,
            })
          }
          const id = randomUUID()
          await transaction
            .insertInto('poi_template_labels')
            .values({
              id,
              template_id: templateId,
              label_key: labelKey,
              is_current: 1,
              created_at: now(),
            })
            .execute()
          return { id, labelKey }
        })
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw fieldError('conflict', createLabelField, 'template.labelTaken', { label: labelKey })
        }
        throw error
      }
    },

    async updateLabel(user, id, labelKey) {
      try {
        return await db.transaction().execute(async (transaction) => {
          const row = await loadLabelForEdit(transaction, user, id)
          if (labelKey !== row.label_key) {
            const taken = await transaction
              .selectFrom('poi_template_labels')
              .select('id')
              .where('template_id', '=', row.template_id)
              .where('label_key', '=', labelKey)
              .executeTakeFirst()
            if (taken)
              throw fieldError('conflict', 'labelKey', 'template.labelTaken', { label: labelKey })
            await transaction
              .updateTable('poi_template_labels')
              .set({ label_key: labelKey })
              .where('id', '=', id)
              .execute()
          }
          return { id, labelKey }
        })
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw fieldError('conflict', 'labelKey', 'template.labelTaken', { label: labelKey })
        }
        throw error
      }
    },

    async deleteLabel(user, id, forever) {
      await db.transaction().execute(async (transaction) => {
        await loadLabelForEdit(transaction, user, id)
        if (forever) {
          await transaction.deleteFrom('poi_template_labels').where('id', '=', id).execute()
        } else {
          await transaction
            .updateTable('poi_template_labels')
            .set({ is_current: 0 })
            .where('id', '=', id)
            .execute()
        }
      })
    },

    async events(user, templateId) {
      await loadVisibleTemplate(db, user, templateId)
      return listEvents(db, templateId)
    },

    async updateEvents(user, templateId, events) {
      return db.transaction().execute(async (transaction) => {
        await loadEditableTemplate(transaction, user, templateId, 'template.addBasicFirst')
        for (const [index, event] of events.entries()) {
          await checkImagePath(
            transaction,
            user,
            `events.${index}.event_image`,
            event.event_image,
            {
              modelPreviewPath: null,
            },
          )
        }
        for (const event of events) {
          const values = {
            is_enabled: event.is_enabled ? 1 : 0,
            event_code: event.event_code,
            event_image: event.event_image,
          }
          const updated = await transaction
            .updateTable('poi_template_events')
            .set(values)
            .where('template_id', '=', templateId)
            .where('kind', '=', event.kind)
            .executeTakeFirst()
          if (Number(updated.numUpdatedRows) === 0) {
            await transaction
              .insertInto('poi_template_events')
              .values({ template_id: templateId, kind: event.kind, ...values })
              .execute()
          }
        }
        return listEvents(transaction, templateId)
      })
    },
  }
}
