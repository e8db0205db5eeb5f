import { api } from './index'
import type { Notice } from './types'
import { noticeRoutes } from '../../contract/notice'

/** `POST /web/notice/queryNotices`: announcements for the signed-in user, newest first. */
export async function queryNotices(): Promise<Notice[]> {
  const { datum } = await api.call(noticeRoutes.queryNotices)
  const list = Array.isArray(datum) ? [...datum] : []
  return list.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)))
}

/** `POST /web/notice/createNotice`: publishes an announcement (admin). */
export async function createNotice(title: string, body: string): Promise<void> {
  await api.call(noticeRoutes.createNotice, { title, body })
}

/** `POST /web/notice/createNoticeUser`: marks one announcement read for this user. */
export async function markNoticeRead(noticeId: Notice['id']): Promise<void> {
  await api.call(noticeRoutes.createNoticeUser, { notice_id: noticeId })
}

/** Whether the server counts a notice as read (it may send a boolean or 0/1). */
export function isNoticeRead(notice: Pick<Notice, 'is_read'>): boolean {
  return notice.is_read === true || notice.is_read === 1
}
