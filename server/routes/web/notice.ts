import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../http/define-route'
import { noticeBodyMaxBytes, noticeRoutes } from '../../../contract/notice'

/** Notices (SPEC §7 "/notice"). */
export function registerNoticeRoutes(app: FastifyInstance): void {
  const { notices } = app.deps.services

  defineRoute(app, noticeRoutes.createNotice, {
    bodyLimitBytes: noticeBodyMaxBytes,
    handler: ({ body, user }) => notices.createNotice(user.id, body),
  })

  defineRoute(app, noticeRoutes.queryNotices, {
    handler: ({ user }) => notices.listForUser(user.id),
  })

  defineRoute(app, noticeRoutes.createNoticeUser, {
    handler: async ({ body, user }) => {
      await notices.markRead(user.id, body.notice_id)
      return null
    },
  })
}
