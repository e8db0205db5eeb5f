import { expect, test } from '@playwright/test'
import { e2eAdmin, hashPathOf, signInThroughForm, setLanguageCookie } from './support/accounts'

test.beforeEach(async ({ context, baseURL }) => {
  await setLanguageCookie(context, baseURL, 'en')
})

test('a deep link opened signed out goes through sign-in and back to the wanted page', async ({
  page,
}) => {
  await page.goto('/#/projectManage/bim?kind=space')

  // Guard rule 6: sign in first, the wanted full path (query included) rides along.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  expect(hashPathOf(page)).toBe(
    `/login?redirect=${encodeURIComponent('/projectManage/bim?kind=space')}`,
  )
  await expect(page).toHaveTitle('Sign in - Twinscape')

  await signInThroughForm(page, e2eAdmin.name, e2eAdmin.password)

  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim?kind=space')
  const spaceLink = page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Space', exact: true })
  await expect(spaceLink).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0)
})

test('a crafted redirect target cannot send the user off the console', async ({
  page,
  baseURL,
}) => {
  await page.goto(`/#/login?redirect=${encodeURIComponent('//evil.example/steal')}`)
  await signInThroughForm(page, e2eAdmin.name, e2eAdmin.password)
  // `/` redirects to the project home; the crafted target is ignored.
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')
  expect(new URL(page.url()).origin).toBe(new URL(baseURL as string).origin)
})
