import { storeUserData } from '../state/session'
import { api } from './index'
import type { ManagedUser, User, UserPage, UserProfile } from './types'

/** `POST /web/user/updateUser`: saves the personal info and keeps the session copy in step. */
export async function updateProfile(current: User, profile: UserProfile): Promise<User> {
  await api.post('/user/updateUser', { ...profile })
  const updated: User = { ...current, ...profile }
  storeUserData(updated)
  return updated
}

/** `POST /web/user/updateUserPassword`. */
export async function changePassword(oldPassword: string, password: string): Promise<void> {
  await api.post('/user/updateUserPassword', { oldPassword, password })
}

/** `POST /web/user/selectUser`: one page of users, filtered by a keyword (admin). */
export async function searchUsers(
  pageNo: number,
  pageSize: number,
  keyword: string,
): Promise<UserPage> {
  const { datum } = await api.post<UserPage>('/user/selectUser', { pageNo, pageSize, keyword })
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
  const { datum } = await api.post<ManagedUser>('/user/insertUser', tel ? user : rest)
  return datum
}

/** `POST /web/user/updateUser` with `id` and `role` (admin): gives another account a role. */
export async function changeUserRole(id: User['id'], roleId: string): Promise<User> {
  const { datum } = await api.post<User>('/user/updateUser', { id, role: roleId })
  return datum
}

/** `POST /web/user/deleteUser` (admin). */
export async function deleteUser(id: User['id']): Promise<void> {
  await api.post('/user/deleteUser', { id })
}

/** `GET /web/roleMenu/selectRoleMenu_Vue`: the menu keys the signed-in user's role may see. */
export async function fetchRoleMenuKeys(): Promise<string[]> {
  const { datum } = await api.get<string[]>('/roleMenu/selectRoleMenu_Vue')
  return Array.isArray(datum) ? datum.filter((key): key is string => typeof key === 'string') : []
}
