import { z } from 'zod'
import type { UserRole } from './user'

/**
 * What a caller may do on one project: the one rule the server enforces
 * (server/modules/access/project-access.ts) and the console shows controls by, so a control is
 * never offered that the server would refuse.
 *
 * - The owner and admins may do everything.
 * - Any other signed-in account (editors, guests) may only look at an official case, and an
 *   editor may copy one into a project of their own.
 * - A project-token holder (a share link, an embedded viewer) may only look at the project the
 *   token opens.
 */

/** Who asks: a signed-in account, or the holder of a live project token for this project. */
export type ProjectViewer =
  | { kind: 'user'; id: string; role: UserRole }
  | { kind: 'projectToken' }
  | { kind: 'anonymous' }

/** The facts about a project the rule needs. */
export interface ProjectAccessFacts {
  owner_id: string
  is_case: boolean
}

/** The answer the server sends with a project (`permissions` on find/open/list answers). */
export const projectPermissionsSchema = z.object({
  /** Open and read the project and its files. */
  canRead: z.boolean(),
  /** Change the project and everything in it (upload, place, update, delete its records). */
  canEdit: z.boolean(),
  /** Delete the project itself. */
  canDelete: z.boolean(),
  /** Make share links and revoke the project's tokens. */
  canShare: z.boolean(),
  /** Copy the project into a new one of the caller's own. */
  canCopy: z.boolean(),
})
export type ProjectPermissions = z.infer<typeof projectPermissionsSchema>

const nothing: ProjectPermissions = {
  canRead: false,
  canEdit: false,
  canDelete: false,
  canShare: false,
  canCopy: false,
}

/** What `viewer` may do on `project`. Pure: the same answer on the server and in the console. */
export function projectPermissionsOf(
  viewer: ProjectViewer,
  project: ProjectAccessFacts,
): ProjectPermissions {
  if (viewer.kind === 'anonymous') return project.is_case ? { ...nothing, canRead: true } : nothing
  // the caller already proved the token opens this very project (see project-access.ts)
  if (viewer.kind === 'projectToken') return { ...nothing, canRead: true }
  const isOwner = viewer.id === project.owner_id && viewer.role !== 'guest'
  if (isOwner || viewer.role === 'admin') {
    return { canRead: true, canEdit: true, canDelete: true, canShare: true, canCopy: true }
  }
  if (!project.is_case) return nothing
  return { ...nothing, canRead: true, canCopy: viewer.role === 'editor' }
}
