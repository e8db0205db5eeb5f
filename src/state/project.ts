import { proxy } from 'valtio'
import type { Project } from '../../contract/project'

/**
 * The open project (SPEC §3 "project" state): `project_id` and `project_token` are kept in
 * local storage so a reload of a scene page reopens the same project; `projectInfo` is the
 * record the project home handed over, refetched by scene pages when missing.
 */
export interface ProjectState {
  projectId: string | null
  projectToken: string | null
  projectInfo: Project | null
}

/** Storage keys, as the spec names the state. */
export const projectStorageKeys = {
  projectId: 'project_id',
  projectToken: 'project_token',
} as const

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    return null
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key)
    else globalThis.localStorage?.setItem(key, value)
  } catch {
    // A session without storage still works until the tab closes.
  }
}

/** The one open-project store; read it with `useSnapshot(currentProject)`. */
export const currentProject = proxy<ProjectState>({
  projectId: read(projectStorageKeys.projectId),
  projectToken: read(projectStorageKeys.projectToken),
  projectInfo: null,
})

/** Remembers the project being entered and its project token. */
export function openProject(project: Project, projectToken: string): void {
  currentProject.projectId = project.id
  currentProject.projectToken = projectToken
  currentProject.projectInfo = project
  write(projectStorageKeys.projectId, project.id)
  write(projectStorageKeys.projectToken, projectToken)
}

/** Forgets the open project (e.g. after it was deleted). */
export function closeProject(): void {
  currentProject.projectId = null
  currentProject.projectToken = null
  currentProject.projectInfo = null
  write(projectStorageKeys.projectId, null)
  write(projectStorageKeys.projectToken, null)
}
