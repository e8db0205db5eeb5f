import { userRoutes } from '../../contract/user'
import { api } from './index'
import type { SignInResult, SmsPurpose, User } from './types'
import { authRoutes } from '../../contract/auth'

/**
 * Calls of signing in and out. They only talk to the server: storing or clearing the session
 * is src/state/account.ts's part.
 */

/**
 * `POST /web/login`: signs in by name and password. `code` is a sign-in code from
 * {@link requestSignInCode}, for when the account's sign-ins are held back.
 */
export async function postSignIn(
  name: string,
  password: string,
  code?: string,
): Promise<SignInResult> {
  const body = code === undefined ? { name, password } : { name, password, code }
  const { datum } = await api.call(authRoutes.login, body)
  return datum
}

/**
 * `POST /web/login/sendCode`: while the account's sign-ins are held back (many wrong passwords),
 * sends a sign-in code to its phone or e-mail. The server answers the same either way.
 */
export async function requestSignInCode(name: string): Promise<void> {
  await api.call(authRoutes.sendCode, { name })
}

/** `POST /web/login/guest`: a short-lived read-only guest session (decisions.md "Accounts"). */
export async function postGuestSignIn(): Promise<SignInResult> {
  const { datum } = await api.call(authRoutes.guest)
  return datum
}

/** `POST /web/register/verificationSms`: sends a 6-digit code to the phone. */
export async function requestSmsCode(tel: string, purpose: SmsPurpose): Promise<void> {
  await api.call(authRoutes.verificationSms, { tel, purpose })
}

/**
 * `POST /web/register/registerByTelNo`: creates an account from phone, code and password; the
 * server signs the new account in and answers like `/login`.
 */
export async function postRegisterByTel(
  tel: string,
  code: string,
  password: string,
): Promise<SignInResult> {
  const { datum } = await api.call(authRoutes.registerByTelNo, { tel, code, password })
  return datum
}

/** `POST /web/register/verificationMail`: sends a 6-digit sign-up code to the address. */
export async function requestMailCode(email: string): Promise<void> {
  await api.call(authRoutes.verificationMail, { email })
}

/** `POST /web/register/isexistemail`: whether an account already uses the address. */
export async function isEmailTaken(email: string): Promise<boolean> {
  const { datum } = await api.call(authRoutes.isexistemail, { email })
  return datum.exists
}

/**
 * `POST /web/register/registerbymail`: creates an account from address, code and password; the
 * server signs it in and answers like `/login`.
 */
export async function postRegisterByMail(
  email: string,
  code: string,
  password: string,
): Promise<SignInResult> {
  const { datum } = await api.call(authRoutes.registerbymail, { email, code, password })
  return datum
}

/** `POST /web/register/forgetPasswordByTelNo`: sets a new password after an SMS check. */
export async function resetPasswordByTel(
  tel: string,
  code: string,
  password: string,
): Promise<void> {
  await api.call(authRoutes.forgetPasswordByTelNo, { tel, code, password })
}

/**
 * `POST /web/register/forgetPasswordVer`: checks a password-reset code before the new password
 * is typed (a right code stays usable for the reset).
 */
export async function checkResetCode(tel: string, code: string): Promise<void> {
  await api.call(authRoutes.forgetPasswordVer, { tel, code })
}

/** `POST /web/user/createTicket`: a one-time ticket (60 s) that signs another browser in. */
export async function createSignInTicket(): Promise<{ ticket: string; expires_at: string }> {
  const { datum } = await api.call(authRoutes.createTicket)
  return datum
}

/** `GET /web/getTokenByTicket`: a session of the ticket's user, answered like `/login`. */
export async function postTicketSignIn(ticket: string): Promise<SignInResult> {
  const { datum } = await api.call(authRoutes.getTokenByTicket, { ticket })
  return datum
}

/** `POST /web/refreshToken`: extends the session; answers the (possibly new) token. */
export async function postRefreshToken(): Promise<string | undefined> {
  const { datum } = await api.call(authRoutes.refreshToken)
  return datum?.token
}

/** `POST /web/user/findUserName`: the signed-in user's record. */
export async function findCurrentUser(): Promise<User> {
  const { datum } = await api.call(userRoutes.findUserName)
  return datum
}

/** `POST /web/logout`: ends the session on the server. */
export async function postSignOut(): Promise<void> {
  await api.call(authRoutes.logout)
}
