import { proxy } from 'valtio'
import type { User } from '../api/types'

/**
 * The signed-in session (SPEC §3 "session"): signin_status and user_data survive a reload as
 * the spec asks; the token does too, because the guard's rule 5 needs "a token and the
 * signed-in flag" after a reload, otherwise every reload would sign the user out.
 */
export interface SessionState {
  /** SPEC's signin_status: 1 after a successful sign-in, 0 after sign-out. */
  signinStatus: 0 | 1
  /** The user token sent in the `Token` header; null when signed out. */
  token: string | null
  /** SPEC's user_data: the signed-in user's record, null until fetched. */
  userData: User | null
  /** Set once when the server answers '2011'; cleared by the next sign-in (SPEC §4). */
  isOverTime: boolean
  /** SPEC's again_second: seconds until another SMS code may be requested, 0 when allowed. */
  againSecond: number
}

/** Storage keys; kept short and stable because e2e specs and old tabs read them. */
export const sessionStorageKeys = {
  signinStatus: 'signin_status',
  token: 'token',
  userData: 'user_data',
} as const

function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    // Storage can throw in private modes or sandboxed frames; a fresh session is the safe answer.
    return null
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key)
    else globalThis.localStorage?.setItem(key, value)
  } catch {
    // Not persisting is acceptable: the session still works until the tab closes.
  }
}

function readPersistedUser(): User | null {
  const text = readStorage(sessionStorageKeys.userData)
  if (!text) return null
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed !== null && typeof parsed === 'object' ? (parsed as User) : null
  } catch {
    return null
  }
}

function initialSessionState(): SessionState {
  return {
    signinStatus: readStorage(sessionStorageKeys.signinStatus) === '1' ? 1 : 0,
    token: readStorage(sessionStorageKeys.token),
    userData: readPersistedUser(),
    isOverTime: false,
    againSecond: 0,
  }
}

/** The one session store; components read it with `useSnapshot(session)`. */
export const session = proxy<SessionState>(initialSessionState())

/** Re-reads the persisted fields (flag, token, user); the in-memory ones stay as they are. */
export function reloadSessionFromStorage(): void {
  const { signinStatus, token, userData } = initialSessionState()
  Object.assign(session, { signinStatus, token, userData })
}

/**
 * Keeps every open tab on the same session: signing in or out in one tab updates the others,
 * whose guard then acts on the next navigation. Returns the function that stops listening.
 */
export function syncSessionAcrossTabs(): () => void {
  const persistedKeys: readonly string[] = Object.values(sessionStorageKeys)
  const onStorage = (event: StorageEvent) => {
    // A null key means another tab cleared all of storage.
    if (event.key === null || persistedKeys.includes(event.key)) reloadSessionFromStorage()
  }
  window.addEventListener('storage', onStorage)
  return () => window.removeEventListener('storage', onStorage)
}

/** Stores the result of a successful sign-in (password or guest) and persists it. */
export function signIn(token: string, user: User | null): void {
  session.token = token
  session.userData = user
  session.signinStatus = 1
  session.isOverTime = false
  writeStorage(sessionStorageKeys.token, token)
  writeStorage(sessionStorageKeys.signinStatus, '1')
  writeStorage(sessionStorageKeys.userData, user ? JSON.stringify(user) : null)
}

/** Replaces the token after `/refreshToken` answered OK. */
export function storeToken(token: string): void {
  session.token = token
  writeStorage(sessionStorageKeys.token, token)
}

/** Stores the user record (after `findUserName` or a profile update). */
export function storeUserData(user: User): void {
  session.userData = user
  writeStorage(sessionStorageKeys.userData, JSON.stringify(user))
}

/** SPEC §4: sign-out clears the signed-in flag, the token and the user data. */
export function clearSession(): void {
  session.signinStatus = 0
  session.token = null
  session.userData = null
  writeStorage(sessionStorageKeys.signinStatus, null)
  writeStorage(sessionStorageKeys.token, null)
  writeStorage(sessionStorageKeys.userData, null)
}

/**
 * SPEC §4 "Token expiry. The state is set once": returns true only for the call that flips the
 * flag, so several requests failing together produce one warning and one redirect.
 */
export function markSessionTimedOut(): boolean {
  if (session.isOverTime) return false
  session.isOverTime = true
  clearSession()
  return true
}

/** True when the guard may treat the user as signed in (SPEC §2 rule 5). */
export function isSignedIn(state: Pick<SessionState, 'token' | 'signinStatus'> = session): boolean {
  return Boolean(state.token) && state.signinStatus === 1
}

/** Guests may look but not change anything (decisions.md "Accounts"). */
export function isGuest(state: Pick<SessionState, 'userData'> = session): boolean {
  return state.userData?.role === 'guest'
}

/** Admin-only pages and menu groups check this. */
export function isAdmin(state: Pick<SessionState, 'userData'> = session): boolean {
  return state.userData?.role === 'admin'
}
