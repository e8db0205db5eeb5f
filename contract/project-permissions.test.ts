import { describe, expect, it } from 'vitest'
import { type ProjectPermissions, projectPermissionsOf } from './project-permissions'

const everything: ProjectPermissions = {
  canRead: true,
  canEdit: true,
  canDelete: true,
  canShare: true,
  canCopy: true,
}
const readOnly: ProjectPermissions = {
  canRead: true,
  canEdit: false,
  canDelete: false,
  canShare: false,
  canCopy: false,
}
const nothing: ProjectPermissions = { ...readOnly, canRead: false }

const own = { owner_id: 'owner', is_case: false }
const officialCase = { owner_id: 'admin-id', is_case: true }

describe('what a caller may do on a project', () => {
  it('lets the owner and admins do everything', () => {
    expect(projectPermissionsOf({ kind: 'user', id: 'owner', role: 'editor' }, own)).toEqual(
      everything,
    )
    expect(projectPermissionsOf({ kind: 'user', id: 'someone', role: 'admin' }, own)).toEqual(
      everything,
    )
  })

  it('keeps other accounts out of someone else’s project', () => {
    expect(projectPermissionsOf({ kind: 'user', id: 'other', role: 'editor' }, own)).toEqual(
      nothing,
    )
    expect(projectPermissionsOf({ kind: 'user', id: 'guest-1', role: 'guest' }, own)).toEqual(
      nothing,
    )
    expect(projectPermissionsOf({ kind: 'anonymous' }, own)).toEqual(nothing)
  })

  it('shows official cases to everyone, read-only; editors may copy them', () => {
    expect(
      projectPermissionsOf({ kind: 'user', id: 'guest-1', role: 'guest' }, officialCase),
    ).toEqual(readOnly)
    expect(projectPermissionsOf({ kind: 'anonymous' }, officialCase)).toEqual(readOnly)
    expect(
      projectPermissionsOf({ kind: 'user', id: 'editor-1', role: 'editor' }, officialCase),
    ).toEqual({ ...readOnly, canCopy: true })
  })

  it('lets a project-token holder only look', () => {
    expect(projectPermissionsOf({ kind: 'projectToken' }, own)).toEqual(readOnly)
  })

  it('never lets a guest session edit, even one whose id owns the project', () => {
    expect(projectPermissionsOf({ kind: 'user', id: 'owner', role: 'guest' }, own)).toEqual(nothing)
  })
})
