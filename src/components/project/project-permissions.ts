import { useSnapshot } from 'valtio'
import {
  type ProjectPermissions,
  type ProjectViewer,
  projectPermissionsOf,
} from '../../../contract/project-permissions'
import type { Project } from '../../api/project'
import { session } from '../../state/session'

export type { ProjectPermissions }

/** What may be done on a project nobody has loaded yet: only looking. */
const lookOnly: ProjectPermissions = {
  canRead: true,
  canEdit: false,
  canDelete: false,
  canShare: false,
  canCopy: false,
}

/**
 * What the signed-in user may do on a project: the server's answer (`permissions`, computed by
 * the same rule the server enforces), else the shared rule itself from the session's user.
 * Controls the server would refuse are hidden by it (issue 12, item 12).
 */
export function projectPermissionsFor(
  project: Pick<Project, 'owner_id' | 'is_case' | 'permissions'> | null | undefined,
  user: { id: string; role: 'admin' | 'editor' | 'guest' } | null | undefined,
): ProjectPermissions {
  if (!project) return lookOnly
  if (project.permissions) return project.permissions
  const viewer: ProjectViewer = user
    ? { kind: 'user', id: user.id, role: user.role }
    : { kind: 'anonymous' }
  return projectPermissionsOf(viewer, project)
}

/** {@link projectPermissionsFor} for the session's user; re-renders when the user changes. */
export function useProjectPermissions(
  project: Pick<Project, 'owner_id' | 'is_case' | 'permissions'> | null | undefined,
): ProjectPermissions {
  const { userData } = useSnapshot(session)
  return projectPermissionsFor(project, userData)
}
