import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'

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
