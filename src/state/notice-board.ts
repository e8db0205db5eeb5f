import { proxy } from 'valtio'
import { isNoticeRead } from '../api/notice'
import type { Notice } from '../api/types'

/** SPEC §3 common.notice_list: the announcements the bell shows. */
export interface NoticeBoardState {
  notices: Notice[]
  isLoading: boolean
  /** Set when the last load failed, so the list can offer a retry. */
  hasLoadFailed: boolean
}

/** Shared by the bell and the publish page, so a new announcement shows without a reload. */
export const noticeBoard = proxy<NoticeBoardState>({
  notices: [],
  isLoading: false,
  hasLoadFailed: false,
})

/** Loads the announcements; a failure keeps the previous list and flags the failure. */
export async function loadNotices(queryNotices: () => Promise<Notice[]>): Promise<void> {
  noticeBoard.isLoading = true
  try {
    noticeBoard.notices = await queryNotices()
    noticeBoard.hasLoadFailed = false
  } catch {
    noticeBoard.hasLoadFailed = true
  } finally {
    noticeBoard.isLoading = false
  }
}

/** How many announcements this user has not read yet. */
export function unreadNoticeCount(notices: readonly Pick<Notice, 'is_read'>[]): number {
  return notices.filter((notice) => !isNoticeRead(notice)).length
}

/** Marks one read on the server, then locally; a failure leaves it unread so it can be retried. */
export async function readNotice(
  id: Notice['id'],
  markNoticeRead: (id: Notice['id']) => Promise<void>,
): Promise<void> {
  const notice = noticeBoard.notices.find((entry) => entry.id === id)
  if (!notice || isNoticeRead(notice)) return
  await markNoticeRead(id)
  notice.is_read = true
}
