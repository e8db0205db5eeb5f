import { storeUserData } from '../state/session'
import { api } from './index'
import type { Role, User, UserPage, UserProfile } from './types'

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
  tel: string
  password: string
  role: string
}

/** `POST /web/user/insertUser` (admin). */
export async function insertUser(user: NewUser): Promise<void> {
  await api.post('/user/insertUser', { ...user })
}

/** `POST /web/user/deleteUser` (admin). */
export async function deleteUser(id: User['id']): Promise<void> {
  await api.post('/user/deleteUser', { id })
}

/** `POST /web/role/findAll`: every role (admin). */
export async function findAllRoles(): Promise<Role[]> {
  const { datum } = await api.post<Role[]>('/role/findAll', {})
  return datum ?? []
}

/** `GET /web/roleMenu/selectRoleMenu_Vue`: the menu keys the signed-in user's role may see. */
export async function fetchRoleMenuKeys(): Promise<string[]> {
  const { datum } = await api.get<string[]>('/roleMenu/selectRoleMenu_Vue')
  return Array.isArray(datum) ? datum.filter((key): key is string => typeof key === 'string') : []
}
