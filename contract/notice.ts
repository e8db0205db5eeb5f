import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'

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
