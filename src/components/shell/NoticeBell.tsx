import { Trans, useLingui } from '@lingui/react/macro'
import { Popover } from 'radix-ui'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { isNoticeRead } from '../../api/notice'
import { useServices } from '../../app/services'
import type { Notice } from '../../api/types'
import { loadNotices, noticeBoard, readNotice, unreadNoticeCount } from '../../state/notice-board'
import { Button, EmptyState, Spinner } from '../../ui'
import { showErrorToast } from '../feedback/error-text'
import './shell.css'

/** How often unread announcements are re-checked while the console is open. */
const noticeRefreshIntervalMs = 5 * 60_000

/** The announcement bell: unread count on the icon, the list in a popover; opening one reads it. */
export function NoticeBell() {
  const { t, i18n } = useLingui()
  const { queryNotices, markNoticeRead } = useServices()
  const board = useSnapshot(noticeBoard)
  const [openNoticeId, setOpenNoticeId] = useState<Notice['id'] | null>(null)
  const unreadCount = unreadNoticeCount(board.notices)

  useEffect(() => {
    void loadNotices(queryNotices)
    const timer = setInterval(() => {
      // A hidden tab does not need fresh announcements; opening the bell loads them anyway.
      if (document.visibilityState === 'visible') void loadNotices(queryNotices)
    }, noticeRefreshIntervalMs)
    return () => clearInterval(timer)
  }, [queryNotices])

  async function toggleNotice(notice: Notice) {
    setOpenNoticeId((current) => (current === notice.id ? null : notice.id))
    try {
      await readNotice(notice.id, markNoticeRead)
    } catch (error) {
      showErrorToast(error)
    }
  }

  const dateFormat = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium' })
  const label =
    unreadCount > 0 ? t`Announcements, ${unreadCount} unread` : t`Announcements, none unread`

  return (
    <Popover.Root onOpenChange={(isOpen) => isOpen && void loadNotices(queryNotices)}>
      <Popover.Trigger className="ts-top-menu__button" aria-label={label} title={label}>
        <svg viewBox="0 0 24 24" aria-hidden="true" className="ts-top-menu__icon">
          <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" />
        </svg>
        {unreadCount > 0 && (
          <span className="ts-top-menu__badge" data-testid="notice-unread-count" aria-hidden="true">
            {unreadCount > 99 ? '99+' : unreadCount}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="ts-notice-list" align="end" sideOffset={6}>
          <h2 className="ts-notice-list__title">
            <Trans>Announcements</Trans>
          </h2>
          {board.isLoading && board.notices.length === 0 && <Spinner />}
          {board.hasLoadFailed && board.notices.length === 0 && (
            <div className="ts-notice-list__failed">
              <p>
                <Trans>The announcements could not be loaded.</Trans>
              </p>
              <Button onClick={() => void loadNotices(queryNotices)}>
                <Trans>Retry</Trans>
              </Button>
            </div>
          )}
          {!board.isLoading && !board.hasLoadFailed && board.notices.length === 0 && (
            <EmptyState title={<Trans>No announcements yet</Trans>} />
          )}
          {board.notices.length > 0 && (
            <ul className="ts-notice-list__items">
              {board.notices.map((notice) => {
                const isRead = isNoticeRead(notice)
                const isOpen = openNoticeId === notice.id
                const created = new Date(notice.created_at)
                return (
                  <li key={notice.id} className={isRead ? 'is-read' : 'is-unread'}>
                    <button
                      type="button"
                      className="ts-notice-list__item"
                      aria-expanded={isOpen}
                      onClick={() => void toggleNotice(notice as Notice)}
                    >
                      {!isRead && (
                        <span className="ts-notice-list__dot">
                          <span className="ts-visually-hidden">
                            <Trans>Unread</Trans>
                          </span>
                        </span>
                      )}
                      <span className="ts-notice-list__item-title">{notice.title}</span>
                      <time dateTime={notice.created_at} className="ts-notice-list__date">
                        {Number.isNaN(created.getTime())
                          ? notice.created_at
                          : dateFormat.format(created)}
                      </time>
                    </button>
                    {isOpen && <p className="ts-notice-list__body">{notice.body}</p>}
                  </li>
                )
              })}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
