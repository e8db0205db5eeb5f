import { randomUUID } from 'node:crypto'
import { type Notice, type NoticeListItem, noticeListMaxLength } from '../../../contract/notice'
import { AppError } from '../../http/app-error'
import { type Clock, timestampOf } from '../time/clock'
import type { NoticeRow, NoticesRepository } from './notices.repository'

/** Notices written by admins for every user. */
export interface NoticesService {
  createNotice(authorId: string, input: { title: string; body: string }): Promise<Notice>
  /** The newest notices for a user, each saying whether that user has read it. */
  listForUser(userId: string): Promise<NoticeListItem[]>
  /** Marks a notice read for a user; `notFound` when there is no such notice. */
  markRead(userId: string, noticeId: string): Promise<void>
}

/** The public view of a notice row. */
export function toPublicNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    author_id: row.author_id,
    created_at: row.created_at,
  }
}

/** Builds the notices service. */
export function createNoticesService(dependencies: {
  notices: NoticesRepository
  clock: Clock
}): NoticesService {
  const { notices, clock } = dependencies
  return {
    async createNotice(authorId, input) {
      const row: NoticeRow = {
        id: randomUUID(),
        title: input.title,
        body: input.body,
        author_id: authorId,
        created_at: timestampOf(clock.nowMs()),
      }
      await notices.insert(row)
      return toPublicNotice(row)
    },

    async listForUser(userId) {
      const rows = await notices.listForUser(userId, noticeListMaxLength)
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        body: row.body,
        created_at: row.created_at,
        is_read: row.read_at !== null,
      }))
    },

    async markRead(userId, noticeId) {
      if ((await notices.findById(noticeId)) === undefined) {
        throw new AppError('notFound', 'notice.notFound')
      }
      await notices.markRead(noticeId, userId, timestampOf(clock.nowMs()))
    },
  }
}
