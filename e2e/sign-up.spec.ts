import { expect, type Page, test } from '@playwright/test'
import {
  callApi,
  codeSentBy,
  enableTestApi,
  hashPathOf,
  pageToken,
  signInThroughForm,
  textbox,
  uniqueTel,
  setLanguageCookie,
} from './support/accounts'

/**
 * The first acceptance path, as a new user walks it: sign up by phone with the code the
 * SMS outbox received, sign out, sign in, change the password, and sign in with the new one.
 */

test.beforeEach(async ({ context, baseURL, page }) => {
  await setLanguageCookie(context, baseURL, 'en')
  await enableTestApi(page)
})

async function signOutThroughMenu(page: Page) {
  await page.getByRole('link', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect.poll(() => hashPathOf(page)).toBe('/login')
}

test('sign up by SMS code, sign out, sign in, change the password, sign in again', async ({
  page,
  request,
}) => {
  const tel = uniqueTel()
  const firstPassword = 'Harbour-lights-e2e-71'
  const secondPassword = 'Mountain-ridge-e2e-52'

  await page.goto('/#/login')
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible()
  await expect(page).toHaveTitle(/ - Twinscape$/)

  await textbox(page, 'Phone number').fill(tel)
  const code = await codeSentBy(tel, () => page.getByRole('button', { name: 'Get code' }).click())
  expect(code).toMatch(/^\d{6}$/)
  // The resend countdown (SPEC again_second) shows and holds the button until it runs out.
  const countdown = page.getByRole('button', { name: /^Resend in \d+ s$/ })
  await expect(countdown).toBeVisible()
  await expect(countdown).toBeDisabled()

  await textbox(page, 'Verification code').fill(code)
  await textbox(page, 'Password').fill(firstPassword)
  await textbox(page, 'Confirm password').fill(firstPassword)
  await page.getByRole('button', { name: 'Sign up', exact: true }).click()

  // The new account is an editor named after its phone number, and is signed in at once.
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')
  const afterSignUp = await page.evaluate(() => window.__twinTest?.getSession())
  expect(afterSignUp).toMatchObject({ isSignedIn: true, userName: tel, role: 'editor' })
  await expect(page.getByTestId('greeting')).toContainText(tel)

  const signUpToken = await pageToken(page)
  await signOutThroughMenu(page)
  // Signing out revoked the token on the server, not only in the browser.
  const withOldToken = await callApi(request, '/user/findUserName', {}, signUpToken)
  expect(withOldToken.envelope.code).toBe('2011')

  await signInThroughForm(page, tel, firstPassword)
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')

  await page.getByRole('link', { name: 'Security info', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible()
  await textbox(page, 'Current password').fill(firstPassword)
  await textbox(page, 'New password').fill(secondPassword)
  // SPEC §5: a confirmation that differs is refused in the form, before any call.
  await textbox(page, 'Confirm password').fill(`${secondPassword}x`)
  await page.getByRole('button', { name: 'Modify' }).click()
  await expect(page.getByText('The confirmed password is wrong.')).toBeVisible()
  await textbox(page, 'Confirm password').fill(secondPassword)
  await page.getByRole('button', { name: 'Modify' }).click()
  await expect(page.getByText('Your password was changed.').first()).toBeVisible()

  await signOutThroughMenu(page)
  await signInThroughForm(page, tel, firstPassword)
  // The old password no longer opens the account.
  await expect(page.getByText('Incorrect user name or password.').first()).toBeVisible()
  expect(hashPathOf(page)).toBe('/login')
  expect(await page.evaluate(() => window.__twinTest?.getSession().isSignedIn)).toBe(false)

  await textbox(page, 'Password').fill(secondPassword)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')
  expect(await page.evaluate(() => window.__twinTest?.getSession().userName)).toBe(tel)
})
