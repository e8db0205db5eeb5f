import { type APIRequestContext, expect, test } from '@playwright/test'
import {
  apiSignIn,
  callApi,
  e2eAdmin,
  textbox,
  setLanguageCookie,
  startSignedIn,
} from './support/accounts'

/**
 * Announcements (issue 3 "Shell"): an admin publishes at /issue, and an editor sees the unread
 * count on the bell, reads the announcement there, and the count goes down again.
 */

/** An announcement as `/notice/queryNotices` lists it for the caller. */
interface ListedNotice {
  title: string
  is_read: boolean | 0 | 1
}

/** The caller's announcements, straight from the server. */
async function noticesOf(request: APIRequestContext, token: string): Promise<ListedNotice[]> {
  const { envelope } = await callApi<ListedNotice[]>(request, '/notice/queryNotices', {}, token)
  expect(envelope.code).toBe('0')
  return envelope.datum
}

const isUnread = (notice: ListedNotice) => notice.is_read !== true && notice.is_read !== 1

/** The bell's accessible name for a number of unread announcements. */
function bellName(unread: number): string {
  return unread === 0 ? 'Announcements, none unread' : `Announcements, ${unread} unread`
}

test('an announcement the admin publishes shows as unread for an editor until read', async ({
  browser,
  baseURL,
  request,
}) => {
  const suffix = `${Date.now()}`
  const editor = { name: `e2e-editor-${suffix}`, password: 'Editor-reads-e2e-33' }
  const adminToken = await apiSignIn(request, e2eAdmin.name, e2eAdmin.password)
  const created = await callApi(
    request,
    '/user/insertUser',
    { ...editor, role: 'editor' },
    adminToken,
  )
  expect(created.envelope.code, created.envelope.message).toBe('0')

  const editorContext = await browser.newContext()
  const adminContext = await browser.newContext()
  try {
    await setLanguageCookie(editorContext, baseURL, 'en')
    await setLanguageCookie(adminContext, baseURL, 'en')
    const editorPage = await editorContext.newPage()
    const adminPage = await adminContext.newPage()

    await startSignedIn(editorPage, editorContext.request, editor.name, editor.password)
    await editorPage.goto('/#/projectManage/bim')
    // Whatever earlier runs published is already unread for a new account; count from there.
    const editorToken = await apiSignIn(request, editor.name, editor.password)
    const unreadBefore = (await noticesOf(request, editorToken)).filter(isUnread).length
    await expect(editorPage.getByRole('button', { name: bellName(unreadBefore) })).toBeVisible()
    // Editors do not publish: the page is not in their menu.
    await expect(editorPage.getByRole('link', { name: 'Personal info' })).toBeVisible()
    await expect(editorPage.getByRole('link', { name: 'Publish an announcement' })).toHaveCount(0)

    const title = `Maintenance window ${suffix}`
    await startSignedIn(adminPage, adminContext.request, e2eAdmin.name, e2eAdmin.password)
    await adminPage.goto('/#/projectManage/bim')
    await adminPage.getByRole('link', { name: 'Publish an announcement' }).click()
    await expect(adminPage).toHaveTitle('Publish an announcement - Twinscape')
    await textbox(adminPage, 'Title').fill(title)
    await textbox(adminPage, 'Announcement').fill('The console restarts at 22:00 for ten minutes.')
    await adminPage.getByRole('button', { name: 'Publish', exact: true }).click()
    await expect(adminPage.getByText('The announcement was published.').first()).toBeVisible()

    // The editor's console picks it up on the next load of the list (a reload here).
    await editorPage.reload()
    await expect(editorPage.getByRole('button', { name: bellName(unreadBefore + 1) })).toBeVisible()
    await expect(editorPage.getByTestId('notice-unread-count')).toHaveText(`${unreadBefore + 1}`)

    await editorPage.getByRole('button', { name: bellName(unreadBefore + 1) }).click()
    const item = editorPage.getByRole('button', { name: new RegExp(title) })
    await expect(item).toContainText('Unread')
    await item.click()
    await expect(
      editorPage.getByText('The console restarts at 22:00 for ten minutes.'),
    ).toBeVisible()
    await expect(item).not.toContainText('Unread')
    await expect(editorPage.getByRole('button', { name: bellName(unreadBefore) })).toBeAttached()

    // Read on the server too, so it stays read in every other session of the editor.
    await expect
      .poll(async () => {
        const published = (await noticesOf(request, editorToken)).find((n) => n.title === title)
        return published ? isUnread(published) : 'missing'
      })
      .toBe(false)
  } finally {
    await editorContext.close()
    await adminContext.close()
  }
})
