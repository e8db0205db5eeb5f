import { expect, test } from '@playwright/test'
import {
  e2eAdmin,
  hashPathOf,
  setLanguageCookie,
  signInThroughForm,
  textbox,
} from './support/accounts'

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

test('the sign-in page arrives compressed, without the map and 3D code', async ({ page }) => {
  type Script = { url: string; encoding: string | undefined; body: string; bytes: number }
  const reads: Promise<Script>[] = []
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? ''
    if (!/javascript|css/.test(type)) return
    reads.push(
      (async () => ({
        url: response.url(),
        encoding: response.headers()['content-encoding'],
        body: await response.text(),
        bytes: (await response.request().sizes()).responseBodySize,
      }))(),
    )
  })
  await page.goto('/#/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect(textbox(page, 'Password')).toBeVisible()
  await page.waitForLoadState('networkidle')
  const scripts = await Promise.all(reads)

  expect(scripts.length).toBeGreaterThan(0)
  // Strings that only the libraries' own code carries (chunk names change with every build).
  const libraryMarkers = {
    maplibre: 'Style is not done loading',
    three: 'THREE.WebGLRenderer',
    deck: 'deck.gl',
    luma: 'luma.gl',
  }
  for (const script of scripts) {
    for (const [library, marker] of Object.entries(libraryMarkers)) {
      expect(script.body.includes(marker), `${library} in ${script.url}`).toBe(false)
    }
    if (script.body.length > 1024) expect(script.encoding, script.url).toBe('br')
  }
  // Before: ~2.6 MB of uncompressed JavaScript and CSS; bench/results/web-app-load.json has the numbers.
  const transferredBytes = scripts.reduce((sum, script) => sum + script.bytes, 0)
  expect(transferredBytes).toBeLessThan(300_000)
})
