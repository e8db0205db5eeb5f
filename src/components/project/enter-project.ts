import { getProjectToken, type Project } from '../../api/project'
import { navigateHash } from '../../app/hash-location'
import { openProject } from '../../state/project'

/**
 * Where a project's scene opens (SPEC §2 "Sidebar path patterns"): city projects at the default
 * module 'map' under /home, building projects at /bim4/poi.
 */
export function scenePathOf(project: Pick<Project, 'kind'>): string {
  return project.kind === 'city' ? '/home/map' : '/bim4/poi'
}

/**
 * Enters a project: asks for its project token, keeps `project_id` and `project_token` (SPEC
 * §3 project state) and opens its scene.
 */
export async function enterProject(
  project: Project,
  dependencies: { getToken?: typeof getProjectToken; navigate?: (path: string) => void } = {},
): Promise<void> {
  const { getToken = getProjectToken, navigate = navigateHash } = dependencies
  const token = await getToken(project.id)
  openProject(project, token.project_token)
  navigate(scenePathOf(project))
}
