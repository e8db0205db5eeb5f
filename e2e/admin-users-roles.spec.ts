import { expect, type Page, test } from '@playwright/test'
import {
  apiSignIn,
  callApi,
  e2eAdmin,
  signInThroughForm,
  textbox,
  setLanguageCookie,
  startSignedIn,
} from './support/accounts'

/**
 * The admin pages of issue 3: users (search, paging, add with a role, change the role, delete
 * after confirming) and roles (add with menu items, edit them, delete after confirming), with
 * the menu a role grants checked from its holder's side.
 */

const password = 'Admin-made-e2e-2026'

/** The admin's token of the current test, for the calls that prepare or check its data. */
let adminToken = ''

test.beforeEach(async ({ context, baseURL, page, request }) => {
  await setLanguageCookie(context, baseURL, 'en')
  const signedIn = await startSignedIn(page, request, e2eAdmin.name, e2eAdmin.password)
  adminToken = signedIn.token
  await page.goto('/#/projectManage/bim')
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible()
})

/** Searches the user list and waits for the answer to replace the rows. */
async function searchUsers(page: Page, keyword: string) {
  await page.getByRole('searchbox', { name: 'Search by name or phone' }).fill(keyword)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
}

/** The body rows of the page's table. */
function tableRows(page: Page) {
  return page.getByRole('table').locator('tbody').getByRole('row')
}

/** Picks an option of a labelled radix Select. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

async function confirmDeletion(page: Page) {
  const question = page.getByRole('alertdialog')
  await expect(question).toContainText('This cannot be undone.')
  await question.getByRole('button', { name: 'Delete', exact: true }).click()
}

test('users: search, pages, add with a role, change the role, delete after confirming', async ({
  page,
  request,
}) => {
  const suffix = `${Date.now()}`
  // Eleven accounts sharing a prefix: one more than a page holds.
  const inserts = Array.from({ length: 11 }, (_, index) => {
    const name = `e2e-page-${suffix}-${String(index + 1).padStart(2, '0')}`
    return callApi(request, '/user/insertUser', { name, password }, adminToken)
  })
  for (const { envelope } of await Promise.all(inserts)) {
    expect(envelope.code, envelope.message).toBe('0')
  }

  await page.getByRole('link', { name: 'User management' }).click()
  await expect(page).toHaveTitle('User management - Twinscape')
  await searchUsers(page, `e2e-page-${suffix}`)
  await expect(page.getByText('Page 1 of 2')).toBeVisible()
  await expect(tableRows(page)).toHaveCount(10)
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('Page 2 of 2')).toBeVisible()
  await expect(tableRows(page)).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled()

  // Add an editor through the dialog.
  const newName = `e2e-user-${suffix}`
  await page.getByRole('button', { name: 'Add user' }).click()
  const addDialog = page.getByRole('dialog', { name: 'Add user' })
  await addDialog.getByRole('button', { name: 'Save' }).click()
  await expect(addDialog.getByText('Please enter your user name.')).toBeVisible()
  await textbox(addDialog, 'User name').fill(newName)
  await textbox(addDialog, 'Password').fill(password)
  await expect(addDialog.getByRole('combobox', { name: 'Role' })).toHaveText('Editor')
  await addDialog.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Added successfully.').first()).toBeVisible()
  await expect(addDialog).toBeHidden()

  await searchUsers(page, newName)
  await expect(tableRows(page)).toHaveCount(1)
  await expect(tableRows(page).first()).toContainText('Editor')

  // Promote to administrator; the account's own session says so.
  await page.getByRole('button', { name: `Change the role of ${newName}` }).click()
  const roleDialog = page.getByRole('dialog', { name: `Change the role of ${newName}` })
  await choose(page, 'Role', 'Administrator')
  await roleDialog.getByRole('button', { name: 'Modify' }).click()
  await expect(roleDialog).toBeHidden()
  await expect(tableRows(page).first()).toContainText('Administrator')
  const promotedToken = await apiSignIn(request, newName, password)
  const promoted = await callApi<{ role: string }>(request, '/user/findUserName', {}, promotedToken)
  expect(promoted.envelope.datum.role).toBe('admin')

  // Delete after confirming; cancelling first keeps the account.
  await page.getByRole('button', { name: `Delete ${newName}` }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  await expect(tableRows(page)).toHaveCount(1)
  await page.getByRole('button', { name: `Delete ${newName}` }).click()
  await confirmDeletion(page)
  await expect(page.getByText('No users found')).toBeVisible()
  const afterDelete = await callApi(request, '/user/findUserName', {}, promotedToken)
  expect(afterDelete.envelope.code).toBe('2011')

  // Nobody deletes or demotes themselves here.
  await searchUsers(page, e2eAdmin.name)
  await expect(page.getByRole('button', { name: `Delete ${e2eAdmin.name}` })).toBeDisabled()
  await expect(
    page.getByRole('button', { name: `Change the role of ${e2eAdmin.name}` }),
  ).toBeDisabled()
})

test('roles: add with menu items, holders see just those, edit, delete after confirming', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const suffix = `${Date.now()}`
  const roleName = `Auditor ${suffix}`

  await page.getByRole('link', { name: 'Role management' }).click()
  await expect(page).toHaveTitle('Role management - Twinscape')
  for (const builtin of ['Administrator', 'Editor', 'Guest']) {
    await expect(page.getByRole('row', { name: new RegExp(`^${builtin}\\b`) })).toBeVisible()
    await expect(page.getByRole('button', { name: `Delete ${builtin}` })).toBeDisabled()
  }

  // A role seeing the project pages and personal settings only.
  await page.getByRole('button', { name: 'Add role' }).click()
  const addDialog = page.getByRole('dialog', { name: 'Add role' })
  await addDialog.getByRole('textbox', { name: 'Role name' }).fill(roleName)
  await addDialog.getByRole('textbox', { name: 'Description' }).fill('Reads projects only')
  for (const group of ['Template manage', 'Model config', 'Order manage']) {
    await addDialog.getByRole('checkbox', { name: group, exact: true }).uncheck()
  }
  await addDialog.getByRole('checkbox', { name: 'Security info' }).uncheck()
  await addDialog.getByRole('button', { name: 'Save' }).click()
  await expect(addDialog).toBeHidden()
  const roleRow = page.getByRole('row', { name: new RegExp(`^${roleName}`) })
  await expect(roleRow).toContainText('Reads projects only')
  await expect(roleRow.getByRole('cell').nth(2)).toHaveText('4')

  // Its holder's console shows just those items; the server answers the same keys.
  const holder = { name: `e2e-auditor-${suffix}`, password }
  const inserted = await callApi(
    request,
    '/user/insertUser',
    { ...holder, role: roleName },
    adminToken,
  )
  expect(inserted.envelope.code, inserted.envelope.message).toBe('0')
  const holderContext = await browser.newContext()
  try {
    await setLanguageCookie(holderContext, baseURL, 'en')
    const holderPage = await holderContext.newPage()
    await holderPage.goto('/#/login')
    await signInThroughForm(holderPage, holder.name, holder.password)
    const holderMenu = holderPage.getByRole('navigation', { name: 'Main menu' })
    await expect(holderMenu.getByRole('link', { name: 'Personal info' })).toBeVisible()
    await expect(holderMenu.getByRole('link')).toHaveText([
      'City',
      'Space',
      'Project cases',
      'Personal info',
    ])
  } finally {
    await holderContext.close()
  }
  const holderToken = await apiSignIn(request, holder.name, holder.password)
  const menu = await request.get('/web/roleMenu/selectRoleMenu_Vue', {
    headers: { Token: holderToken },
  })
  expect(((await menu.json()) as { datum: string[] }).datum.sort()).toEqual(
    ['projectManage.cases', 'projectManage.city', 'projectManage.space', 'system.person'].sort(),
  )

  // Edit: the order pages come back.
  await page.getByRole('button', { name: `Edit ${roleName}` }).click()
  const editDialog = page.getByRole('dialog', { name: 'Edit role' })
  await expect(
    editDialog.getByRole('checkbox', { name: 'Order manage', exact: true }),
  ).not.toBeChecked()
  await editDialog.getByRole('checkbox', { name: 'Order manage', exact: true }).check()
  await editDialog.getByRole('button', { name: 'Modify' }).click()
  await expect(editDialog).toBeHidden()
  await expect(roleRow.getByRole('cell').nth(2)).toHaveText('7')

  // A role somebody holds cannot go; once nobody does, it can.
  await page.getByRole('button', { name: `Delete ${roleName}` }).click()
  const refusal = page.waitForResponse('**/web/role/delete')
  await confirmDeletion(page)
  expect((await (await refusal).json()).code).not.toBe('0')
  await expect(roleRow).toBeVisible()
  const holderId = (await callApi<{ id: string }>(request, '/user/findUserName', {}, holderToken))
    .envelope.datum.id
  const removed = await callApi(request, '/user/deleteUser', { id: holderId }, adminToken)
  expect(removed.envelope.code).toBe('0')
  await page.getByRole('button', { name: `Delete ${roleName}` }).click()
  await confirmDeletion(page)
  await expect(roleRow).toHaveCount(0)
  expect(page.url()).toContain('/system/roles')
})
