import { useSnapshot } from 'valtio'
import { isAdmin, isGuest, session } from '../state/session'

/** What the signed-in user may do; pages disable editing actions from it. */
export interface Permissions {
  /** False for guests, who may look but not change anything (decisions.md "Accounts"). */
  canEdit: boolean
  isAdmin: boolean
}

/** Reads the permissions from the session and re-renders when the user changes. */
export function usePermissions(): Permissions {
  const snapshot = useSnapshot(session)
  return { canEdit: !isGuest(snapshot), isAdmin: isAdmin(snapshot) }
}
