import type { z } from 'zod'
import {
  type addCaseDetailBodySchema,
  type CaseDetail,
  type CaseMenu,
  caseRoutes,
  type updateCaseDetailBodySchema,
} from '../../contract/cases'
import { api } from './index'

export type { CaseDetail, CaseMenu } from '../../contract/cases'

/** `POST /web/case/findCaseMenu`: the gallery's categories, in order. */
export async function findCaseMenus(signal?: AbortSignal): Promise<CaseMenu[]> {
  const { datum } = await api.call(caseRoutes.findCaseMenu, undefined, signal ? { signal } : {})
  return datum
}

/** `POST /web/case/findCaseDetail`: every case in gallery order. */
export async function findCaseDetails(signal?: AbortSignal): Promise<CaseDetail[]> {
  const { datum } = await api.call(caseRoutes.findCaseDetail, {}, signal ? { signal } : {})
  return datum
}

/** `POST /web/case/addCaseMenu` (admins). */
export async function addCaseMenu(name: string): Promise<CaseMenu> {
  return (await api.call(caseRoutes.addCaseMenu, { name })).datum
}

/** `POST /web/case/updateCaseMenu` (admins): rename and/or move. */
export async function updateCaseMenu(input: {
  id: string
  name?: string
  sort_order?: number
}): Promise<CaseMenu> {
  return (await api.call(caseRoutes.updateCaseMenu, input)).datum
}

/** `POST /web/case/deleteCaseMenu` (admins): its cases stay, uncategorised. */
export async function deleteCaseMenu(id: string): Promise<void> {
  await api.call(caseRoutes.deleteCaseMenu, { id })
}

/** `POST /web/case/addCaseDetail` (admins): makes a project a case. */
export async function addCaseDetail(
  input: z.input<typeof addCaseDetailBodySchema>,
): Promise<CaseDetail> {
  return (await api.call(caseRoutes.addCaseDetail, input)).datum
}

/** `POST /web/case/updateCaseDetail` (admins). */
export async function updateCaseDetail(
  input: z.input<typeof updateCaseDetailBodySchema>,
): Promise<CaseDetail> {
  return (await api.call(caseRoutes.updateCaseDetail, input)).datum
}

/** `POST /web/case/deleteCaseDetail` (admins): the project is private again. */
export async function deleteCaseDetail(id: string): Promise<void> {
  await api.call(caseRoutes.deleteCaseDetail, { id })
}
