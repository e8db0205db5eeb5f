import { clearSession, signIn, storeToken, storeUserData } from '../state/session'
import { api } from './index'
import type { SignInResult, SmsPurpose, User } from './types'

/**
 * `POST /web/login`: signs in by name and password and stores the session. `code` is a sign-in
 * code from {@link requestSignInCode}, for when the account's sign-ins are held back.
 */
export async function signInWithPassword(
  name: string,
  password: string,
  code?: string,
): Promise<User> {
  const body = code === undefined ? { name, password } : { name, password, code }
  const { datum } = await api.post<SignInResult>('/login', body)
  signIn(datum.token, datum.user)
  return datum.user
}

/**
 * `POST /web/login/sendCode`: while the account's sign-ins are held back (many wrong passwords),
 * sends a sign-in code to its phone or e-mail. The server answers the same either way.
 */
export async function requestSignInCode(name: string): Promise<void> {
  await api.post('/login/sendCode', { name })
}

/** `POST /web/login/guest`: a short-lived read-only guest session (decisions.md "Accounts"). */
export async function signInAsGuest(): Promise<User> {
  const { datum } = await api.post<SignInResult>('/login/guest', {})
  signIn(datum.token, datum.user)
  return datum.user
}

/** `POST /web/register/verificationSms`: sends a 6-digit code to the phone. */
export async function requestSmsCode(tel: string, purpose: SmsPurpose): Promise<void> {
  await api.post('/register/verificationSms', { tel, purpose })
}

/**
 * `POST /web/register/registerByTelNo`: creates an account from phone, code and password. The
 * server signs the new account in, so the session is stored like after `/login`.
 */
export async function registerByTel(tel: string, code: string, password: string): Promise<void> {
  const { datum } = await api.post<SignInResult>('/register/registerByTelNo', {
    tel,
    code,
    password,
  })
  signIn(datum.token, datum.user)
}

/** `POST /web/register/forgetPasswordByTelNo`: sets a new password after an SMS check. */
export async function resetPasswordByTel(
  tel: string,
  code: string,
  password: string,
): Promise<void> {
  await api.post('/register/forgetPasswordByTelNo', { tel, code, password })
}

/** `POST /web/refreshToken`: extends the session and stores the (possibly new) token. */
export async function refreshToken(): Promise<void> {
  const { datum } = await api.post<{ token: string }>('/refreshToken', {})
  if (datum?.token) storeToken(datum.token)
}

/** `POST /web/user/findUserName`: the signed-in user's record, stored in the session. */
export async function fetchCurrentUser(): Promise<User> {
  const { datum } = await api.post<User>('/user/findUserName', {})
  storeUserData(datum)
  return datum
}

/**
 * `POST /web/logout`, then clears the local session. The local part happens even when the call
 * fails (network down, token already expired): the user asked to leave and must not stay signed in.
 */
export async function signOut(): Promise<void> {
  try {
    await api.post('/logout', {})
  } catch {
    // See above: the server may already consider the session gone.
  } finally {
    clearSession()
  }
}
