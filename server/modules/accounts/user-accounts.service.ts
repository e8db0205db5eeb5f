import type { z } from 'zod'
import type {
  insertUserBodySchema,
  ManagedUser,
  selectUserBodySchema,
  updateUserBodySchema,
  updateUserPasswordBodySchema,
  User,
} from '../../../contract/user'
import { AppError, fieldError } from '../../http/app-error'
import { isUniqueViolation } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import { assertAcceptablePassword } from '../auth/password-policy'
import { hashPassword, verifyPassword } from '../auth/passwords'
import type { RolesService } from './roles.service'
import type { SessionsRepository } from '../auth/sessions.repository'
import type { SignInGuard } from '../auth/sign-in-guard'
import type { UserRow, UserRowChanges, UsersRepository } from './users.repository'
import { type AuthUser, toPublicUser, type UsersService } from './users.service'

/** An uploaded image as far as an avatar needs to know it. */
export interface AvatarUpload {
  owner_id: string | null
  extension: string
}

/**
 * The accounts of `/user/*` besides `findUserName`: a user's own profile and password, and the
 * admin's list, creation and deletion of accounts. Who may do what is decided here, not only by
 * the route's level, so an editor can never reach another account through a field.
 */
export interface UserAccountsService {
  /** `updateUser`: own profile; admins may name another account (`id`) and change its `role`. */
  updateProfile(caller: AuthUser, input: z.output<typeof updateUserBodySchema>): Promise<User>
  /** `updateUserPassword`: the caller's other sessions end; this one stays. */
  changePassword(
    caller: AuthUser,
    context: { sessionId: string; clientAddress: string },
    input: z.output<typeof updateUserPasswordBodySchema>,
  ): Promise<void>
  list(
    input: z.output<typeof selectUserBodySchema>,
  ): Promise<{ total: number; list: ManagedUser[] }>
  insert(input: z.output<typeof insertUserBodySchema>): Promise<ManagedUser>
  /** Deletes an account other than the caller's. */
  delete(caller: AuthUser, userId: string): Promise<void>
  /**
   * Disables an account other than the caller's (every session of it ends at once; it cannot
   * sign in until enabled again), or enables it.
   */
  setDisabled(caller: AuthUser, userId: string, isDisabled: boolean): Promise<ManagedUser>
}

const uuidPattern = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(jpg|png)$/

/** Where an avatar is served (contract/files.ts `uploadedFilesRoot`). */
const avatarRoot = '/web/files/'

/** Builds the user accounts service. */
export function createUserAccountsService(dependencies: {
  users: UsersRepository
  usersService: UsersService
  sessions: SessionsRepository
  roles: RolesService
  signInGuard: SignInGuard
  /** Looks up an upload of `/upload/uploadJpg` by its uuid. */
  findUpload: (uploadId: string) => Promise<AvatarUpload | undefined>
  clock: Clock
}): UserAccountsService {
  const { users, usersService, sessions, roles, signInGuard, findUpload, clock } = dependencies

  const toManaged = async (rows: UserRow[]): Promise<ManagedUser[]> => {
    const held = await roles.rolesOfUsers(rows)
    return rows.map((row) => {
      const role = held.get(row.id)
      return {
        ...toPublicUser(row),
        role_id: role?.id ?? '',
        role_name: role?.name ?? row.role,
        disabled: row.disabled === 1,
      }
    })
  }

  /** The stored avatar address for an upload the account (or the admin editing it) made. */
  const avatarOf = async (value: string, allowedOwners: ReadonlySet<string>): Promise<string> => {
    const match = uuidPattern.exec(value)
    const upload = match ? await findUpload(match[1] as string) : undefined
    if (
      match === null ||
      upload === undefined ||
      upload.extension !== match[2] ||
      upload.owner_id === null ||
      !allowedOwners.has(upload.owner_id)
    ) {
      throw fieldError('validation', 'avatar', 'account.avatarNotUploaded')
    }
    return `${avatarRoot}${match[1]}.${match[2]}`
  }

  /** Refuses a name, phone or e-mail another account already has. */
  const assertUnique = async (
    changes: {
      name: string | undefined
      tel: string | null | undefined
      email: string | null | undefined
    },
    ownId: string,
  ) => {
    const checks = [
      ['name', changes.name, users.findByName, 'account.nameTaken'],
      ['tel', changes.tel, users.findByTel, 'account.telTaken'],
      ['email', changes.email, users.findByEmail, 'account.emailTaken'],
    ] as const
    for (const [field, value, find, message] of checks) {
      if (value === undefined || value === null) continue
      const other = await find(value)
      if (other !== undefined && other.id !== ownId) throw fieldError('conflict', field, message)
    }
  }

  return {
    async updateProfile(caller, input) {
      const targetId = input.id ?? caller.id
      const isAdmin = caller.role === 'admin'
      if (targetId !== caller.id && !isAdmin) {
        throw new AppError('forbidden', 'account.onlyOwnProfile')
      }
      if (input.role !== undefined && !isAdmin) {
        throw new AppError('forbidden', 'account.onlyAdminChangesRoles')
      }
      if (input.role !== undefined && targetId === caller.id) {
        throw new AppError('forbidden', 'account.ownRole')
      }
      const target = await users.findById(targetId)
      if (target === undefined || target.role === 'guest') {
        throw new AppError('notFound', 'account.notFound')
      }
      // One's own phone and e-mail change only with a code sent to the new one (`changePhone`,
      // `changeEmail`); clearing needs none, and an admin sets another account's directly.
      if (target.id === caller.id) {
        for (const field of ['tel', 'email'] as const) {
          const value = input[field]
          if (value !== undefined && value !== null && value !== target[field]) {
            throw fieldError('validation', field, 'account.contactNeedsCode')
          }
        }
      }
      const role = input.role === undefined ? undefined : await roles.resolveAssignable(input.role)
      const { id: _id, role: _role, avatar, ...profile } = input
      // Absent fields stay as they are; null (or an emptied field) clears one.
      const changes: UserRowChanges = Object.fromEntries(
        Object.entries(profile).filter(([, value]) => value !== undefined),
      )
      if (avatar !== undefined) {
        changes.avatar =
          avatar === null ? null : await avatarOf(avatar, new Set([target.id, caller.id]))
      }
      await assertUnique({ name: input.name, tel: input.tel, email: input.email }, target.id)
      changes.updated_at = timestampOf(clock.nowMs())
      try {
        await users.update(target.id, changes)
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError('conflict', 'account.identityTaken')
        }
        throw error
      }
      if (role !== undefined) await roles.assign(target.id, role)
      return usersService.getUser(target.id)
    },

    async changePassword(caller, { sessionId, clientAddress }, input) {
      const account = await users.findById(caller.id)
      if (account === undefined) throw new AppError('notFound', 'account.notFound')
      assertAcceptablePassword(input.password, account)
      // The current password is a guess like any sign-in: the same limits apply, before hashing.
      const attempt = await signInGuard.begin(account.name, clientAddress)
      if (!(await verifyPassword(input.oldPassword, account.password_hash))) {
        await attempt.failed()
        throw fieldError('validation', 'oldPassword', 'account.wrongCurrentPassword')
      }
      await attempt.succeeded()
      const nowMs = clock.nowMs()
      await users.update(account.id, {
        password_hash: await hashPassword(input.password),
        updated_at: timestampOf(nowMs),
      })
      await sessions.revokeOthersOfUser(account.id, sessionId, timestampOf(nowMs))
    },

    async list({ pageNo, pageSize, keyword }) {
      const { total, rows } = await users.findPage({
        keyword,
        offset: (pageNo - 1) * pageSize,
        limit: pageSize,
      })
      return { total, list: await toManaged(rows) }
    },

    async insert(input) {
      const role = await roles.resolveAssignable(input.role)
      assertAcceptablePassword(input.password, input)
      const profile = {
        nickname: input.nickname ?? null,
        sex: input.sex ?? null,
        tel: input.tel ?? null,
        email: input.email ?? null,
        birthday: input.birthday ?? null,
        job_title: input.job_title ?? null,
        company: input.company ?? null,
      }
      const row = await usersService.createUser({
        name: input.name,
        password: input.password,
        role: role.access_level,
        ...profile,
      })
      if (!role.is_builtin) await roles.assign(row.id, role)
      const [managed] = await toManaged([{ ...row, role: role.access_level }])
      return managed as ManagedUser
    },

    async setDisabled(caller, userId, isDisabled) {
      if (userId === caller.id) throw new AppError('forbidden', 'account.ownAccountDisabled')
      const target = await users.findById(userId)
      if (target === undefined || target.role === 'guest') {
        throw new AppError('notFound', 'account.notFound')
      }
      const timestamp = timestampOf(clock.nowMs())
      await users.update(target.id, { disabled: isDisabled ? 1 : 0, updated_at: timestamp })
      // a disabled account's open sessions would still answer until they expire: end them now
      if (isDisabled) await sessions.revokeAllOfUser(target.id, timestamp)
      const [managed] = await toManaged([{ ...target, disabled: isDisabled ? 1 : 0 }])
      return managed as ManagedUser
    },

    async delete(caller, userId) {
      if (userId === caller.id) {
        throw new AppError('forbidden', 'account.ownAccount')
      }
      if (!(await users.deleteById(userId))) throw new AppError('notFound', 'account.notFound')
    },
  }
}
