import { proxy } from 'valtio'
import type { Investigation } from '../../../api/investigations'
import * as investigationsApi from '../../../api/investigations'

/** The inspection records of the open project, newest inspection first (valtio). */
export const investigationsStore = proxy<{ projectId: string | null; list: Investigation[] }>({
  projectId: null,
  list: [],
})

let loadSequence = 0

/** Loads the project's records (the alarm list shows each alarm's with it). */
export async function loadInvestigations(projectId: string): Promise<void> {
  const sequence = ++loadSequence
  if (investigationsStore.projectId !== projectId) {
    investigationsStore.projectId = projectId
    investigationsStore.list = []
  }
  const page = await investigationsApi.findInvestigations(projectId)
  // a newer load (another project) won the race
  if (sequence === loadSequence) investigationsStore.list = page.list
}

/** Puts a saved record in its place (newest inspection first). */
export function upsertInvestigation(record: Investigation): void {
  const others = investigationsStore.list.filter((known) => known.id !== record.id)
  investigationsStore.list = [...others, record].sort(
    (a, b) => b.inspected_at.localeCompare(a.inspected_at) || b.id.localeCompare(a.id),
  )
}

/** Forgets a deleted record. */
export function dropInvestigation(id: string): void {
  investigationsStore.list = investigationsStore.list.filter((known) => known.id !== id)
}
