import { expect, type Page, test } from '@playwright/test'
import { e2eAdmin, hashPathOf, signInThroughForm } from './support/accounts'

/**
 * decisions.md "Identity and language": ko by default, zh and en chosen in the top menu, the
 * choice kept in the `language` cookie across reloads, and no English left on the ko screens.
 */

/**
 * Latin-letter words on the visible page that are interface text. Left out: the names given
 * (product, signed-in user) and what users wrote, i.e. the names and addresses on project cards.
 */
async function untranslatedWords(page: Page): Promise<string[]> {
  // innerText, not textContent: only what is rendered counts, not hidden templates or styles.
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point here
  let text = await page.locator('body').innerText()
  // Read after the page text: cards that render in between are then in both, never only in it.
  const cards = page.getByTestId('project-card')
  const userData = [
    ...(await cards.getByRole('heading').allInnerTexts()),
    ...(await cards.getByRole('paragraph').allInnerTexts()),
  ]
  for (const data of userData) text = text.replaceAll(data, ' ')
  const words = text.match(/[A-Za-z][A-Za-z'’-]+/g) ?? []
  return words.filter((word) => !namesNotToTranslate.includes(word))
}

/** The product name and the signed-in user's name in the greeting. */
const namesNotToTranslate = ['Twinscape', e2eAdmin.name]

async function languageCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies()
  return cookies.find((cookie) => cookie.name === 'language')?.value
}

async function chooseLanguage(page: Page, currentLabel: RegExp, languageLabel: string) {
  await page.getByRole('button', { name: currentLabel }).click()
  await page.getByRole('menuitemradio', { name: languageLabel }).click()
}

test('ko by default, switching to zh and en and back, the cookie surviving reloads', async ({
  page,
}) => {
  await page.goto('/#/login')

  // No cookie yet: Korean, with nothing left in English.
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko')
  await expect(page.getByRole('heading', { name: '로그인' })).toBeVisible()
  await expect(page.getByRole('button', { name: '게스트로 계속하기' })).toBeVisible()
  expect(await untranslatedWords(page)).toEqual([])
  expect(await languageCookie(page)).toBe('ko')

  // The server words its refusals in English; the console shows the known ones translated.
  await signInThroughForm(page, 'nobody-by-this-name', 'Not-the-password-1', 'ko')
  await expect(
    page.getByText('사용자 이름 또는 비밀번호가 올바르지 않습니다.').first(),
  ).toBeVisible()
  expect(await untranslatedWords(page)).toEqual([])

  await signInThroughForm(page, e2eAdmin.name, e2eAdmin.password, 'ko')
  await expect.poll(() => hashPathOf(page)).toBe('/projectManage/bim')
  const mainMenu = page.getByRole('navigation', { name: '메인 메뉴' })
  await expect(mainMenu.getByRole('button', { name: '시스템 설정' })).toBeVisible()
  // the admin owns the seeded cases: wait for their cards, whose names are user data
  await expect(page.getByTestId('project-card').first()).toBeVisible()
  expect(await untranslatedWords(page)).toEqual([])
  await mainMenu.getByRole('link', { name: '보안 정보', exact: true }).click()
  await expect(page.getByRole('heading', { name: '비밀번호 변경' })).toBeVisible()
  expect(await untranslatedWords(page)).toEqual([])

  await chooseLanguage(page, /한국어/, '中文')
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh')
  await expect(page.getByRole('heading', { name: '修改密码' })).toBeVisible()
  expect(await languageCookie(page)).toBe('zh')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh')
  await expect(page.getByRole('heading', { name: '修改密码' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: '主菜单' })).toBeVisible()

  await chooseLanguage(page, /中文/, 'English')
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible()
  expect(await languageCookie(page)).toBe('en')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible()

  await chooseLanguage(page, /English/, '한국어')
  await expect(page.getByRole('heading', { name: '비밀번호 변경' })).toBeVisible()
  expect(await languageCookie(page)).toBe('ko')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko')
  await expect(page.getByRole('heading', { name: '비밀번호 변경' })).toBeVisible()
  expect(await untranslatedWords(page)).toEqual([])
})
