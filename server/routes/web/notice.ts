import type { FastifyInstance } from 'fastify'
import { nullDatumSchema } from '../../../contract/common'
import {
  createNoticeBodySchema,
  createNoticeUserBodySchema,
  noticeSchema,
  queryNoticesDatumSchema,
} from '../../../contract/notice'
import { defineRoute } from '../../http/define-route'

/** Notices (SPEC §7 "/notice"). */
export function registerNoticeRoutes(app: FastifyInstance): void {
  const { notices } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/notice/createNotice',
    auth: 'admin',
    summary: 'Publish a notice to every user',
    body: createNoticeBodySchema,
    datum: noticeSchema,
    handler: ({ body, user }) => notices.createNotice(user.id, body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/notice/queryNotices',
    auth: 'user',
    summary: 'The newest notices, newest first, with whether you have read each',
    datum: queryNoticesDatumSchema,
    handler: ({ user }) => notices.listForUser(user.id),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/notice/createNoticeUser',
    auth: 'user',
    summary: 'Mark a notice read for yourself',
    description:
      'Guests may too: it records only their own reading, which goes with their guest account.',
    body: createNoticeUserBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await notices.markRead(user.id, body.notice_id)
      return null
    },
  })
}
