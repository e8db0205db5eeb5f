import { randomUUID } from 'node:crypto'
import type { User, UserRole } from '../../../contract/user'
import { AppError } from '../../http/app-error'
import { isUniqueViolation } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import { hashPassword } from '../auth/passwords'
import type { UserRow, UsersRepository } from './users.repository'

/** Who is signed in, as route handlers see it (`request.user`). */
export interface AuthUser {
  id: string
  name: string
  role: UserRole
}

/** What creating an account needs; optional profile fields default to null. */
export interface NewUserInput {
  name: string
  password: string
  role: UserRole
  nickname?: string | null
  sex?: string | null
  tel?: string | null
  email?: string | null
  birthday?: string | null
  job_title?: string | null
  company?: string | null
  avatar?: string | null
}

/** Account operations shared by sign-in, sign-up, the seed and user management. */
export interface UsersService {
  /** Creates an account with a hashed password; a taken name, tel or e-mail is a `conflict`. */
  createUser(input: NewUserInput): Promise<UserRow>
  /** The public view of a user; `notFound` if there is none. */
  getUser(id: string): Promise<User>
}

/** The user as the API shows it: every field but the password hash and the disabled flag. */
export function toPublicUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    nickname: row.nickname,
    sex: row.sex,
    tel: row.tel,
    email: row.email,
    birthday: row.birthday,
    job_title: row.job_title,
    company: row.company,
    avatar: row.avatar,
    role: row.role,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** The identity part of a user row, for `request.user`. */
export function toAuthUser(row: UserRow): AuthUser {
  return { id: row.id, name: row.name, role: row.role }
}

/** Builds the users service from the users repository and the clock. */
export function createUsersService(dependencies: {
  users: UsersRepository
  clock: Clock
}): UsersService {
  const { users, clock } = dependencies
  return {
    async createUser(input) {
      if (await users.findByName(input.name)) {
        throw new AppError('conflict', 'account.nameTaken')
      }
      if (input.tel && (await users.findByTel(input.tel))) {
        throw new AppError('conflict', 'account.telTaken')
      }
      if (input.email && (await users.findByEmail(input.email))) {
        throw new AppError('conflict', 'account.emailTaken')
      }
      const now = timestampOf(clock.nowMs())
      const row: UserRow = {
        id: randomUUID(),
        name: input.name,
        nickname: input.nickname ?? null,
        sex: input.sex ?? null,
        tel: input.tel ?? null,
        email: input.email ?? null,
        birthday: input.birthday ?? null,
        job_title: input.job_title ?? null,
        company: input.company ?? null,
        avatar: input.avatar ?? null,
        password_hash: await hashPassword(input.password),
        role: input.role,
        disabled: 0,
        created_at: now,
        updated_at: now,
      }
      try {
        await users.insert(row)
      } catch (error) {
        // Two sign-ups racing past the checks above: the unique index decides.
        if (isUniqueViolation(error)) {
          throw new AppError('conflict', 'account.identityTaken')
        }
        throw error
      }
      return row
    },

    async getUser(id) {
      const row = await users.findById(id)
      if (row === undefined) throw new AppError('notFound', 'account.notFound')
      return toPublicUser(row)
    },
  }
}
