import {
  findCurrentUser,
  postGuestSignIn,
  postRefreshToken,
  postRegisterByMail,
  postRegisterByTel,
  postSignIn,
  postSignOut,
  postTicketSignIn,
} from '../api/auth'
import type { User, UserProfile } from '../api/types'
import { updateProfile } from '../api/user'
import { clearSession, signIn, storeToken, storeUserData } from './session'

/**
 * The account calls that change the session: each asks the server (src/api/) and then stores
 * or clears the session here, so the client stays a plain client.
 */

/**
 * Signs in by name and password and stores the session. `code` is a sign-in code from
 * `requestSignInCode`, for when the account's sign-ins are held back.
 */
export async function signInWithPassword(
  name: string,
  password: string,
  code?: string,
): Promise<User> {
  const datum = await postSignIn(name, password, code)
  signIn(datum.token, datum.user)
  return datum.user
}

/** Signs in with a one-time ticket another signed-in browser made, and stores the session. */
export async function signInWithTicket(ticket: string): Promise<User> {
  const datum = await postTicketSignIn(ticket)
  signIn(datum.token, datum.user)
  return datum.user
}

/** Starts a short-lived read-only guest session (decisions.md "Accounts"). */
export async function signInAsGuest(): Promise<User> {
  const datum = await postGuestSignIn()
  signIn(datum.token, datum.user)
  return datum.user
}

/** Creates an account by phone; the server signs it in, so the session is stored as after sign-in. */
export async function registerByTel(tel: string, code: string, password: string): Promise<void> {
  const datum = await postRegisterByTel(tel, code, password)
  signIn(datum.token, datum.user)
}

/** Creates an account by e-mail; the server signs it in, so the session is stored. */
export async function registerByMail(email: string, code: string, password: string): Promise<void> {
  const datum = await postRegisterByMail(email, code, password)
  signIn(datum.token, datum.user)
}

/** Extends the session and stores the (possibly new) token. */
export async function refreshToken(): Promise<void> {
  const token = await postRefreshToken()
  if (token) storeToken(token)
}

/** Fetches the signed-in user's record and stores it in the session. */
export async function fetchCurrentUser(): Promise<User> {
  const user = await findCurrentUser()
  storeUserData(user)
  return user
}

/**
 * Signs out on the server, then clears the local session. The local part happens even when the
 * call fails (network down, token already expired): the user asked to leave and must not stay
 * signed in.
 */
export async function signOut(): Promise<void> {
  try {
    await postSignOut()
  } catch {
    // See above: the server may already consider the session gone.
  } finally {
    clearSession()
  }
}

/** Saves the personal info and keeps the session's copy in step. */
export async function saveProfile(current: User, profile: Partial<UserProfile>): Promise<User> {
  await updateProfile(profile)
  const updated: User = { ...current, ...profile }
  storeUserData(updated)
  return updated
}
