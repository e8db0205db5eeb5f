import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { z } from 'zod'
import { webRoute } from './route'

/**
 * Largest body of `/notice/createNotice` (the server's default is 64 KiB): 20,000 characters of
 * Chinese or Korean, form-encoded, take 9 bytes each.
 */
export const noticeBodyMaxBytes = 256 * 1024

/** `POST /web/notice/createNotice` input (admin only). */
export const createNoticeBodySchema = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(20_000),
})
export type CreateNoticeBody = z.input<typeof createNoticeBodySchema>

/** A notice as the API shows it. */
export const noticeSchema = z.object({
  id: recordIdSchema,
  title: z.string(),
  body: z.string(),
  author_id: recordIdSchema,
  created_at: timestampSchema,
})
export type Notice = z.infer<typeof noticeSchema>

/** One notice of `POST /web/notice/queryNotices`, with whether the caller has read it. */
export const noticeListItemSchema = z.object({
  id: recordIdSchema,
  title: z.string(),
  body: z.string(),
  created_at: timestampSchema,
  is_read: z.boolean(),
})
export type NoticeListItem = z.infer<typeof noticeListItemSchema>

/** Most notices `queryNotices` answers, newest first. */
export const noticeListMaxLength = 200

/** `queryNotices` answer: the newest notices for the caller. */
export const queryNoticesDatumSchema = z.array(noticeListItemSchema)

/** `POST /web/notice/createNoticeUser`: marks a notice read for the caller (repeats are fine). */
export const createNoticeUserBodySchema = z.object({ notice_id: recordIdSchema })
export type CreateNoticeUserBody = z.input<typeof createNoticeUserBodySchema>

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const noticeRoutes = {
  createNotice: webRoute({
    method: 'POST',
    path: '/web/notice/createNotice',
    auth: 'admin',
    summary: 'Publish a notice to every user',
    body: createNoticeBodySchema,
    datum: noticeSchema,
  }),
  queryNotices: webRoute({
    method: 'POST',
    path: '/web/notice/queryNotices',
    auth: 'user',
    summary: 'The newest notices, newest first, with whether you have read each',
    datum: queryNoticesDatumSchema,
  }),
  createNoticeUser: webRoute({
    method: 'POST',
    path: '/web/notice/createNoticeUser',
    auth: 'user',
    summary: 'Mark a notice read for yourself',
    description:
      'Guests may too: it records only their own reading, which goes with their guest account.',
    body: createNoticeUserBodySchema,
    datum: nullDatumSchema,
  }),
}
