import { expect, test } from '@playwright/test'
import {
  callApi,
  enableTestApi,
  hashPathOf,
  pageToken,
  textbox,
  setLanguageCookie,
} from './support/accounts'

/**
 * decisions.md "Accounts": guest sign-in opens a short-lived, read-only session. The console
 * offers no editing to a guest, and the server refuses every editing call made with the guest's
 * token even when the console is bypassed.
 */

test.beforeEach(async ({ context, baseURL, page }) => {
  await setLanguageCookie(context, baseURL, 'en')
  await enableTestApi(page)
})

test('a guest can look around but every editing action is refused', async ({ page, request }) => {
  await page.goto('/#/login')
  await page.getByRole('button', { name: 'Continue as guest' }).click()
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')
  await expect(page.getByText('Guest (read only)')).toBeVisible()
  expect(await page.evaluate(() => window.__twinTest?.getSession().role)).toBe('guest')

  // The console: no Create, no admin pages, the forms locked.
  const mainMenu = page.getByRole('navigation', { name: 'Main menu' })
  await expect(mainMenu.getByRole('link', { name: 'Personal info' })).toBeVisible()
  await expect(mainMenu.getByRole('link', { name: 'User management' })).toHaveCount(0)
  await expect(mainMenu.getByRole('link', { name: 'Publish an announcement' })).toHaveCount(0)
  await page.goto('/#/projectManage/bim?kind=city')
  await expect(page.getByRole('heading', { name: 'City projects' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0)

  await page.goto('/#/system/security')
  await expect(page.getByText('Guests cannot change the password.')).toBeVisible()
  await expect(textbox(page, 'Current password')).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Modify' })).toBeDisabled()

  await page.goto('/#/system/person')
  await expect(textbox(page, 'Nickname')).toBeDisabled()

  await page.goto('/#/system/users')
  await expect(page.getByRole('heading', { name: 'No permission' })).toBeVisible()

  // The server: reading is allowed, every change is forbidden with the guest's own token.
  const token = await pageToken(page)
  const whoAmI = await callApi<{ role: string }>(request, '/user/findUserName', {}, token)
  expect(whoAmI.envelope.code).toBe('0')
  expect(whoAmI.envelope.datum.role).toBe('guest')
  expect((await callApi(request, '/project/findProjectCases', {}, token)).envelope.code).toBe('0')

  const editingCalls: Array<[path: string, body: Record<string, unknown>]> = [
    ['/project/addProject', { kind: 'city', name: 'Guest project' }],
    ['/user/updateUser', { nickname: 'Guest nickname' }],
    ['/user/updateUserPassword', { oldPassword: 'whatever-1', password: 'Another-pass-e2e-9' }],
    ['/notice/createNotice', { title: 'Guest notice', body: 'Should not be published' }],
    ['/user/insertUser', { name: 'made-by-guest', password: 'Another-pass-e2e-9' }],
    ['/role/add', { name: 'Guest role' }],
  ]
  for (const [path, body] of editingCalls) {
    const { status, envelope } = await callApi(request, path, body, token)
    expect({ path, status, code: envelope.code }).toEqual({ path, status: 403, code: '1003' })
  }
})

test('a guest opening a project case sees no control it may not use', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/#/login')
  await page.getByRole('button', { name: 'Continue as guest' }).click()
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')

  // The case gallery: enter and info only, by the permissions the server sent with each case.
  await page.goto('/#/projectCase')
  const building = 'House (SBM building)'
  const city = 'Dragon tileset (3D Tiles)'
  const cases = page.getByTestId('project-cases')
  await expect(cases.getByRole('button', { name: `Enter ${building}` }).first()).toBeVisible()
  for (const name of [building, city]) {
    for (const action of ['Edit', 'Copy', 'Delete']) {
      await expect(cases.getByRole('button', { name: `${action} ${name}` })).toHaveCount(0)
    }
  }

  // The building editor: the model list shows, nothing to upload, update or delete.
  await cases
    .getByRole('button', { name: `Enter ${building}` })
    .first()
    .click()
  await expect(page.getByTestId('bim4-editor')).toBeVisible()
  await page
    .getByRole('navigation', { name: 'Space project' })
    .getByRole('link', { name: 'Model', exact: true })
    .click()
  await expect(page.getByTestId('model-item').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('button', { name: 'Upload shell' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Upload floors' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Update house' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Delete house' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Show house' })).toBeVisible()

  // The city editor: the oblique photography tab lists, nothing to upload or change.
  await page.goto('/#/projectCase')
  await cases
    .getByRole('button', { name: `Enter ${city}` })
    .first()
    .click()
  await expect(page.getByTestId('city-editor')).toBeVisible()
  await expect(
    page
      .getByRole('tree', { name: 'Oblique photography' })
      .or(page.getByText('No oblique photography yet')),
  ).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('button', { name: 'Upload oblique photography' })).toHaveCount(0)
})
