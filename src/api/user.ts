import { authRoutes } from '../../contract/auth'
import { roleRoutes } from '../../contract/role'
import type { UpdateUserBody } from '../../contract/user'
import { api } from './index'
import type { ManagedUser, User, UserPage, UserProfile } from './types'
import { userRoutes } from '../../contract/user'

/**
 * `POST /web/user/updateUser`: saves the personal info (src/state/account.ts `saveProfile` keeps
 * the session's copy in step).
 */
export async function updateProfile(profile: Partial<UserProfile>): Promise<void> {
  // The form offers only the contract's values for `sex`; the server checks them anyway.
  await api.call(userRoutes.updateUser, { ...profile } as UpdateUserBody)
}

/**
 * `POST /web/user/sendPhoneChangeCode` or `sendEmailChangeCode`: a code to the phone number or
 * e-mail address the signed-in person wants to use instead.
 */
export async function sendContactChangeCode(
  field: 'tel' | 'email',
  address: string,
): Promise<void> {
  if (field === 'tel') await api.call(authRoutes.sendPhoneChangeCode, { tel: address })
  else await api.call(authRoutes.sendEmailChangeCode, { email: address })
}

/** `POST /web/user/changePhone` or `changeEmail`: the change, with the code sent to the new one. */
export async function changeContact(
  field: 'tel' | 'email',
  address: string,
  code: string,
): Promise<User> {
  const { datum } =
    field === 'tel'
      ? await api.call(authRoutes.changePhone, { tel: address, code })
      : await api.call(authRoutes.changeEmail, { email: address, code })
  return datum
}

/** `POST /web/user/updateUserPassword`. */
export async function changePassword(oldPassword: string, password: string): Promise<void> {
  await api.call(userRoutes.updateUserPassword, { oldPassword, password })
}

/** `POST /web/user/selectUser`: one page of users, filtered by a keyword (admin). */
export async function searchUsers(
  pageNo: number,
  pageSize: number,
  keyword: string,
): Promise<UserPage> {
  const { datum } = await api.call(userRoutes.selectUser, { pageNo, pageSize, keyword })
  return { total: datum?.total ?? 0, list: datum?.list ?? [] }
}

/** The fields an admin fills to create an account. */
export interface NewUser {
  name: string
  /** Empty when the account has no phone number. */
  tel: string
  password: string
  /** The id (or name) of the role the account holds. */
  role: string
}

/** `POST /web/user/insertUser` (admin): answers the account with its role. */
export async function insertUser(user: NewUser): Promise<ManagedUser> {
  const { tel, ...rest } = user
  // An empty phone is "no phone": the field is left out rather than sent as ''.
  const { datum } = await api.call(userRoutes.insertUser, tel ? user : rest)
  return datum
}

/** `POST /web/user/updateUser` with `id` and `role` (admin): gives another account a role. */
export async function changeUserRole(id: User['id'], roleId: string): Promise<User> {
  const { datum } = await api.call(userRoutes.updateUser, { id, role: roleId })
  return datum
}

/** `POST /web/user/deleteUser` (admin). */
export async function deleteUser(id: User['id']): Promise<void> {
  await api.call(userRoutes.deleteUser, { id })
}

/**
 * `POST /web/user/disableUser` (admin): disables an account (its sessions end at once) or
 * enables it again; answers the account as the list shows it.
 */
export async function setUserDisabled(id: User['id'], isDisabled: boolean): Promise<ManagedUser> {
  const { datum } = await api.call(userRoutes.disableUser, { id, disabled: isDisabled })
  return datum
}

/** `GET /web/roleMenu/selectRoleMenu_Vue`: the menu keys the signed-in user's role may see. */
export async function fetchRoleMenuKeys(): Promise<string[]> {
  const { datum } = await api.call(roleRoutes.selectRoleMenu_Vue)
  return Array.isArray(datum) ? datum.filter((key): key is string => typeof key === 'string') : []
}
