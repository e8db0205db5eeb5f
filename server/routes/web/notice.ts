import type { FastifyInstance } from 'fastify'
import { createNoticeBodySchema, noticeSchema } from '../../../contract/notice'
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
}
