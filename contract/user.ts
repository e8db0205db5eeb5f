import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { z } from 'zod'
import { zodMessage } from './messages'
import { formBoolean, formInteger } from './form-fields'
import { webRoute } from './route'

/** Shortest password a new account or a password change accepts (decisions.md "Accounts"). */
export const passwordMinLength = 8
/** Longest accepted password text; longer input is refused before any hashing is done. */
export const passwordMaxLength = 128

/**
 * A new password: 8–128 characters. The server also refuses the most common passwords and the
 * account's own name, phone or e-mail, answering `validation` on the field `password`.
 */
export const newPasswordSchema = z
  .string()
  .min(passwordMinLength, `The password needs at least ${passwordMinLength} characters.`)
  .max(passwordMaxLength, `The password may have at most ${passwordMaxLength} characters.`)

/** Characters people type inside phone numbers that carry no meaning. */
const phoneSeparators = /[\s\-().]/g

/**
 * A phone number: 6–15 digits with an optional leading `+` (E.164 length). Spaces, dashes,
 * dots and brackets are dropped, so `010-1234-5678` and `01012345678` are the same account.
 */
export const telSchema = z
  .string()
  .max(32, zodMessage('input.phone'))
  .transform((text) => text.replace(phoneSeparators, ''))
  .pipe(z.string().regex(/^\+?\d{6,15}$/, zodMessage('input.phone')))

/** An e-mail address, trimmed and lower-cased so one mailbox is one account. */
export const emailSchema = z
  .string()
  .trim()
  .max(254, zodMessage('input.email'))
  .toLowerCase()
  .pipe(z.email(zodMessage('input.email')))

/** Roles are data (decisions.md "Accounts"): admin, editor (every registered user), guest. */
export const userRoleSchema = z.enum(['admin', 'editor', 'guest'])
export type UserRole = z.infer<typeof userRoleSchema>

/** A user as the API shows it (SPEC §3 "User"), never with the password or its hash. */
export const userSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  nickname: z.string().nullable(),
  sex: z.string().nullable(),
  tel: z.string().nullable(),
  email: z.string().nullable(),
  /** A calendar date, `YYYY-MM-DD`. */
  birthday: z.string().nullable(),
  job_title: z.string().nullable(),
  company: z.string().nullable(),
  avatar: z.string().nullable(),
  role: userRoleSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type User = z.infer<typeof userSchema>

/** `POST /web/user/findUserName`: the signed-in user. */
export const findUserNameDatumSchema = userSchema

/** A login name: no spaces, 1–64 characters. */
export const userNameSchema = z
  .string()
  .trim()
  .min(1, zodMessage('input.userNameRequired'))
  .max(64, zodMessage('input.userNameTooLong'))
  .regex(/^[^\s]+$/, zodMessage('input.userNameSpaces'))

/** Turns '' (an emptied form field) into null: "not given". */
function emptyAsNull<Schema extends z.ZodType>(schema: Schema) {
  return z.union([z.null(), z.literal('').transform(() => null), schema])
}

/** An optional free-text profile field of at most `maxLength` characters; '' clears it. */
const profileText = (maxLength: number) => emptyAsNull(z.string().trim().max(maxLength))

/** Sex as the personal-info form offers it. */
export const sexSchema = z.enum(['male', 'female', 'other'])

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
export const calendarDateSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, zodMessage('input.dateFormat'))
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`)
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text)
  }, zodMessage('input.dateMissing'))

/**
 * An avatar: the address `/upload/uploadJpg` gave for an image the caller uploaded
 * (`{rootPath}{jpgName}`, e.g. `/web/files/<uuid>.png`), or its bare `jpgName`.
 */
export const avatarSchema = z
  .string()
  .trim()
  .regex(
    /^(\/web\/files\/)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png)$/,
    zodMessage('input.avatarUploaded'),
  )

/** The profile fields of SPEC §3 "User" a user edits; every one optional (absent: unchanged). */
export const profileFieldsSchema = z.object({
  name: userNameSchema.optional(),
  nickname: profileText(64).optional(),
  sex: emptyAsNull(sexSchema).optional(),
  tel: emptyAsNull(telSchema).optional(),
  email: emptyAsNull(emailSchema).optional(),
  birthday: emptyAsNull(calendarDateSchema).optional(),
  job_title: profileText(100).optional(),
  company: profileText(100).optional(),
  avatar: emptyAsNull(avatarSchema).optional(),
})

/**
 * `POST /web/user/updateUser` (and its alias `updateuser`): changes the signed-in user's own
 * profile and answers the updated user. Admins may pass `id` to edit another account and `role`
 * (a role id or name, see contract/role.ts) to change its role; anyone else gets `forbidden`.
 */
export const updateUserBodySchema = profileFieldsSchema.extend({
  id: recordIdSchema.optional(),
  role: z.string().trim().min(1).max(64).optional(),
})
export type UpdateUserBody = z.input<typeof updateUserBodySchema>

/** `POST /web/user/updateUserPassword`: every other session of the account ends. */
export const updateUserPasswordBodySchema = z.object({
  oldPassword: z.string().min(1, zodMessage('input.currentPasswordRequired')).max(128),
  password: newPasswordSchema,
})
export type UpdateUserPasswordBody = z.input<typeof updateUserPasswordBodySchema>

/** `POST /web/user/selectUser` (admin): a page of accounts, guests left out. */
export const selectUserBodySchema = z.object({
  /** 1-based. */
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: 100 }).default(20),
  /** Matched anywhere in the name, nickname, phone or e-mail, ignoring case. */
  keyword: z.string().trim().max(100).default(''),
})
export type SelectUserBody = z.input<typeof selectUserBodySchema>

/** A user in the admin list, with the role they hold. */
export const managedUserSchema = userSchema.extend({
  role_id: recordIdSchema,
  role_name: z.string(),
  /** A disabled account cannot sign in, and its sessions ended when it was disabled. */
  disabled: z.boolean(),
})
export type ManagedUser = z.infer<typeof managedUserSchema>

/** `selectUser` answer. */
export const userPageDatumSchema = z.object({
  total: z.number().int(),
  list: z.array(managedUserSchema),
})
export type UserPageDatum = z.infer<typeof userPageDatumSchema>

/**
 * `POST /web/user/insertUser` (admin): an account with a password and a role (id or name of a
 * role that is not the guest role; default `editor`). The avatar is the account's own to upload.
 */
export const insertUserBodySchema = profileFieldsSchema.omit({ avatar: true }).extend({
  name: userNameSchema,
  password: newPasswordSchema,
  role: z.string().trim().min(1).max(64).default('editor'),
})
export type InsertUserBody = z.input<typeof insertUserBodySchema>

/** `POST /web/user/deleteUser` (admin): nobody deletes their own account this way. */
export const deleteUserBodySchema = z.object({ id: recordIdSchema })
export type DeleteUserBody = z.input<typeof deleteUserBodySchema>

/** `POST /web/user/disableUser` (admin): disables (or enables again) another account. */
export const disableUserBodySchema = z.object({
  id: recordIdSchema,
  disabled: formBoolean(),
})
export type DisableUserBody = z.input<typeof disableUserBodySchema>

function updateUserRoute(path: '/web/user/updateUser' | '/web/user/updateuser') {
  return webRoute({
    method: 'POST',
    path,
    auth: 'editor',
    summary: 'Change your own profile (SPEC §3 User fields); answers the updated user',
    description:
      'Fields left out stay as they are; an empty text clears an optional field. The avatar ' +
      'is the address /upload/uploadJpg gave for an image you uploaded. Admins may pass `id` ' +
      "to edit another account and `role` (a role's id or name) to change its role.",
    body: updateUserBodySchema,
    datum: userSchema,
  })
}

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const userRoutes = {
  findUserName: webRoute({
    method: 'POST',
    path: '/web/user/findUserName',
    auth: 'user',
    summary: 'The signed-in user',
    description: 'Takes an empty payload and answers the user data in datum (SPEC §7).',
    datum: findUserNameDatumSchema,
  }),
  updateUser: updateUserRoute('/web/user/updateUser'),
  /** SPEC §7 lists both spellings; old clients use the lower-case one. */
  updateuser: updateUserRoute('/web/user/updateuser'),
  updateUserPassword: webRoute({
    method: 'POST',
    path: '/web/user/updateUserPassword',
    auth: 'editor',
    summary: 'Change your password; your other sessions end',
    description:
      'A wrong `oldPassword` answers `validation` on that field and counts as a failed sign-in.',
    body: updateUserPasswordBodySchema,
    datum: nullDatumSchema,
  }),
  selectUser: webRoute({
    method: 'POST',
    path: '/web/user/selectUser',
    auth: 'admin',
    summary: 'A page of accounts (guests left out), newest first',
    body: selectUserBodySchema,
    datum: userPageDatumSchema,
  }),
  insertUser: webRoute({
    method: 'POST',
    path: '/web/user/insertUser',
    auth: 'admin',
    summary: 'Create an account with a password and a role',
    body: insertUserBodySchema,
    datum: managedUserSchema,
  }),
  disableUser: webRoute({
    method: 'POST',
    path: '/web/user/disableUser',
    auth: 'admin',
    summary: 'Disable another account (its sessions end, it cannot sign in) or enable it again',
    body: disableUserBodySchema,
    datum: managedUserSchema,
  }),
  deleteUser: webRoute({
    method: 'POST',
    path: '/web/user/deleteUser',
    auth: 'admin',
    summary: 'Delete another account with its sessions and projects',
    body: deleteUserBodySchema,
    datum: nullDatumSchema,
  }),
}
