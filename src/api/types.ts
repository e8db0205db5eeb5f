/**
 * Shapes of the /web/ answers the console relies on. Where `contract/` defines a shape the
 * console uses it as is; the rest follows SPEC §3 and the call list.
 */
import type { Notice as ContractNotice } from '../../contract/notice'
import type { User } from '../../contract/user'

export type { Envelope } from '../../contract/envelope'
export type { LoginDatum as SignInResult } from '../../contract/auth'
export type { User, UserRole } from '../../contract/user'

/** The editable profile fields of `/user/updateUser` (SPEC §3 User, without the password). */
export type UserProfile = Pick<
  User,
  'name' | 'nickname' | 'sex' | 'tel' | 'email' | 'birthday' | 'job_title' | 'company' | 'avatar'
>

/** `POST /web/upload/uploadJpg`. */
export type { UploadJpgDatum as UploadedImage } from '../../contract/files'

/** One announcement of `/notice/queryNotices`, with whether this user has read it. */
export type Notice = Pick<ContractNotice, 'id' | 'title' | 'body' | 'created_at'> & {
  /** The server may send a boolean or 0/1. */
  is_read: boolean | 0 | 1
}

/** A page of `/user/selectUser`: accounts with the role each holds (admin). */
export type { ManagedUser, UserPageDatum as UserPage } from '../../contract/user'

/** A role of `/role/findAll`: its access level and the menu keys its holders see. */
export type { Role } from '../../contract/role'

/** Why an SMS code is requested (`/register/verificationSms`). */
export type SmsPurpose = 'register' | 'forget'
