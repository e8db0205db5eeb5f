import type { FastifyInstance } from 'fastify'
import { nullDatumSchema } from '../../../contract/common'
import {
  deleteUserBodySchema,
  findUserNameDatumSchema,
  insertUserBodySchema,
  managedUserSchema,
  selectUserBodySchema,
  updateUserBodySchema,
  updateUserPasswordBodySchema,
  userPageDatumSchema,
  userSchema,
} from '../../../contract/user'
import { defineRoute } from '../../http/define-route'

/** The signed-in user's own account, and account management for admins (SPEC §7 "/user/"). */
export function registerUserRoutes(app: FastifyInstance): void {
  const { users, userAccounts } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/findUserName',
    auth: 'user',
    summary: 'The signed-in user',
    description: 'Takes an empty payload and answers the user data in datum (SPEC §7).',
    datum: findUserNameDatumSchema,
    handler: ({ user }) => users.getUser(user.id),
  })

  // SPEC §7 lists both spellings; old clients use the lower-case one.
  for (const url of ['/web/user/updateUser', '/web/user/updateuser']) {
    defineRoute(app, {
      method: 'POST',
      url,
      auth: 'editor',
      summary: 'Change your own profile (SPEC §3 User fields); answers the updated user',
      description:
        'Fields left out stay as they are; an empty text clears an optional field. The avatar ' +
        'is the address /upload/uploadJpg gave for an image you uploaded. Admins may pass `id` ' +
        "to edit another account and `role` (a role's id or name) to change its role.",
      body: updateUserBodySchema,
      datum: userSchema,
      handler: ({ body, user }) => userAccounts.updateProfile(user, body),
    })
  }

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/updateUserPassword',
    auth: 'editor',
    summary: 'Change your password; your other sessions end',
    description:
      'A wrong `oldPassword` answers `validation` on that field and counts as a failed sign-in.',
    body: updateUserPasswordBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user, request }) => {
      await userAccounts.changePassword(
        user,
        { sessionId: request.sessionId as string, clientAddress: request.ip },
        body,
      )
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/selectUser',
    auth: 'admin',
    summary: 'A page of accounts (guests left out), newest first',
    body: selectUserBodySchema,
    datum: userPageDatumSchema,
    handler: ({ body }) => userAccounts.list(body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/insertUser',
    auth: 'admin',
    summary: 'Create an account with a password and a role',
    body: insertUserBodySchema,
    datum: managedUserSchema,
    handler: ({ body }) => userAccounts.insert(body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/deleteUser',
    auth: 'admin',
    summary: 'Delete another account with its sessions and projects',
    body: deleteUserBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await userAccounts.delete(user, body.id)
      return null
    },
  })
}
