import { fileRoutes, type UploadJpgDatum } from '../../contract/files'
import {
  type Investigation,
  type InvestigationPage,
  type InvestigationState,
  investigationRoutes,
} from '../../contract/investigations'
import { api } from './index'

export type {
  Investigation,
  InvestigationPage,
  InvestigationPhoto,
  InvestigationState,
} from '../../contract/investigations'

/** The fields of a record the form edits (`photos`: upload uuids, in the order shown). */
export interface InvestigationFields {
  inspector: string
  /** ISO 8601 with offset. */
  inspected_at: string
  findings: string
  state: InvestigationState
  photos: string[]
}

/** `POST /web/investigation/find`: a page of the project's records, newest inspection first. */
export async function findInvestigations(
  projectId: string,
  filter: { alarmId?: string; poiId?: string; pageSize?: number } = {},
): Promise<InvestigationPage> {
  const body = {
    projectid: projectId,
    pageSize: filter.pageSize ?? 500,
    ...(filter.alarmId === undefined ? {} : { alarm_id: filter.alarmId }),
    ...(filter.poiId === undefined ? {} : { poi_id: filter.poiId }),
  }
  return (await api.call(investigationRoutes.findInvestigations, body)).datum
}

/** `POST /web/investigation/add`: a record against an alarm or a POI. */
export async function addInvestigation(
  subject: { alarm_id: string } | { poi_id: string },
  fields: InvestigationFields,
): Promise<Investigation> {
  const body = { ...subject, ...fields }
  return (await api.call(investigationRoutes.addInvestigation, body, { encoding: 'json' })).datum
}

/** `POST /web/investigation/update`: changes a record (its photo list is replaced). */
export async function updateInvestigation(
  id: string,
  fields: InvestigationFields,
): Promise<Investigation> {
  const body = { id, ...fields }
  return (await api.call(investigationRoutes.updateInvestigation, body, { encoding: 'json' })).datum
}

/** `POST /web/investigation/del`: deletes a record; its photos are released. */
export async function deleteInvestigation(id: string): Promise<void> {
  await api.call(investigationRoutes.deleteInvestigation, { id })
}

/**
 * `POST /web/upload/uploadJpg` for an inspection photo: made for the project, so the record
 * may use it and the project's delete releases it.
 */
export async function uploadInspectionPhoto(
  file: File,
  projectId: string,
): Promise<UploadJpgDatum> {
  const form = new FormData()
  form.append('project_id', projectId)
  form.append('file', file)
  return (await api.upload(fileRoutes.uploadJpg, form)).datum
}
