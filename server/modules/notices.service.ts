import { randomUUID } from 'node:crypto'
import type { Notice } from '../../contract/notice'
import { type Clock, timestampOf } from './clock'
import type { NoticeRow, NoticesRepository } from './notices.repository'

/** Notices written by admins for every user. */
export interface NoticesService {
  createNotice(authorId: string, input: { title: string; body: string }): Promise<Notice>
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
  }
}
