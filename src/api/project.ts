import { fileRoutes } from '../../contract/files'
import type { UploadJpgDatum } from '../../contract/files'
import type {
  CreateProjectBody,
  Project,
  ProjectInfo,
  ProjectKind,
  ProjectPage,
  ProjectShareDatum,
  ProjectTokenDatum,
  UpdateProjectBody,
} from '../../contract/project'
import { api } from './index'
import { projectRoutes } from '../../contract/project'

export type {
  Project,
  ProjectInfo,
  ProjectKind,
  ProjectPage,
  ProjectTokenDatum,
} from '../../contract/project'

/** What a project list asks for (SPEC §7 `findProjectAll`). */
export interface ProjectListQuery {
  kind?: ProjectKind
  keyword?: string
  pageNo?: number
  pageSize?: number
  sort?: 'updated_at' | 'created_at' | 'name'
  order?: 'asc' | 'desc'
}

/** `POST /web/project/findProjectAll`: a page of the projects the user may see. */
export async function findProjects(
  query: ProjectListQuery,
  signal?: AbortSignal,
): Promise<ProjectPage> {
  const { datum } = await api.call(
    projectRoutes.findProjectAll,
    { ...query },
    signal ? { signal } : {},
  )
  return datum
}

/**
 * `POST /web/project/searchProject`: a page of the projects the user may see whose name or
 * address holds the keyword.
 */
export async function searchProjects(
  query: ProjectListQuery & { keyword: string },
  signal?: AbortSignal,
): Promise<ProjectPage> {
  const { datum } = await api.call(
    projectRoutes.searchProject,
    { ...query },
    signal ? { signal } : {},
  )
  return datum
}

/**
 * `POST /web/project/findProjectAllByUser`: a page of one user's projects (admins may name any
 * user; others get their own).
 */
export async function findUserProjects(
  userId: string,
  query: ProjectListQuery,
  signal?: AbortSignal,
): Promise<ProjectPage> {
  const { datum } = await api.call(
    projectRoutes.findProjectAllByUser,
    { ...query, user_id: userId },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/project/findProjectCases`: the official examples. */
export async function findProjectCases(signal?: AbortSignal): Promise<Project[]> {
  const { datum } = await api.call(
    projectRoutes.findProjectCases,
    undefined,
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/project/addProject` (JSON: the picked point is an object). */
export async function addProject(body: CreateProjectBody): Promise<Project> {
  const { datum } = await api.call(projectRoutes.addProject, { ...body }, { encoding: 'json' })
  return datum
}

/** `POST /web/project/updateProject`. */
export async function updateProject(body: UpdateProjectBody): Promise<Project> {
  const { datum } = await api.call(projectRoutes.updateProject, { ...body }, { encoding: 'json' })
  return datum
}

/** `POST /web/project/deleteProject`. */
export async function deleteProject(id: string): Promise<void> {
  await api.call(projectRoutes.deleteProject, { id })
}

/** `POST /web/project/copyProject`: a copy owned by the user; `name` defaults to the original's. */
export async function copyProject(id: string, name?: string): Promise<Project> {
  const { datum } = await api.call(projectRoutes.copyProject, name ? { id, name } : { id })
  return datum
}

/** `POST /web/project/findprojectinfoall`: what the project info viewer shows. */
export async function findProjectInfo(id: string): Promise<ProjectInfo> {
  const { datum } = await api.call(projectRoutes.findprojectinfoall, { id })
  return datum
}

/** `POST /web/project/findProjectOne`: one project as it is now (the edit form starts from it). */
export async function findProjectOne(id: string): Promise<Project> {
  const { datum } = await api.call(projectRoutes.findProjectOne, { id })
  return datum
}

/** `POST /web/project/getPTokenByprojectId`: a project token for opening the project's scene. */
export async function getProjectToken(id: string): Promise<ProjectTokenDatum> {
  const { datum } = await api.call(projectRoutes.getPTokenByprojectId, { id })
  return datum
}

/** `POST /web/project/projectShareUrl`: a public preview address with a new project token. */
export async function getProjectShareUrl(id: string): Promise<ProjectShareDatum> {
  const { datum } = await api.call(projectRoutes.projectShareUrl, { id })
  return datum
}

/**
 * `POST /web/upload/uploadJpg` for a project cover, with the list thumbnail the browser made
 * (when it could). Covers nobody saves are cleaned up by the server after a while.
 */
export async function uploadProjectCover(
  file: File,
  thumbnail: Blob | null,
  projectId?: string,
): Promise<UploadJpgDatum> {
  const form = new FormData()
  form.append('purpose', 'project-cover')
  if (projectId) form.append('project_id', projectId)
  form.append('file', file)
  if (thumbnail) form.append('thumbnail', thumbnail, 'thumbnail.jpg')
  const { datum } = await api.upload(fileRoutes.uploadJpg, form)
  return datum
}
