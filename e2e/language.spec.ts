import { expect, type Locator, type Page, test } from '@playwright/test'
import {
  e2eAdmin,
  hashPathOf,
  setLanguageCookie,
  signInThroughForm,
  startSignedIn,
} from './support/accounts'
import { createBuildingProject, enterBuildingProject } from './support/building'
import { createCityProject, enterCityProject } from './support/city'
import { keepScreenshot } from './support/screens'

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
  // English wording of the console's own places (issue 12 item 17)
  const controls = page.getByRole('navigation', { name: 'Console controls' })
  await expect(controls.getByRole('link', { name: 'Devices', exact: true })).toBeVisible()
  await expect(controls.getByRole('link', { name: 'Rule chains', exact: true })).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Main menu' }).getByText('Project management', {
      exact: true,
    }),
  ).toBeVisible()

  await chooseLanguage(page, /English/, '한국어')
  await expect(page.getByRole('heading', { name: '비밀번호 변경' })).toBeVisible()
  expect(await languageCookie(page)).toBe('ko')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko')
  await expect(page.getByRole('heading', { name: '비밀번호 변경' })).toBeVisible()
  expect(await untranslatedWords(page)).toEqual([])
})

/** What a person sees of one tab: its label, on how many lines, and whether it can be seen whole. */
interface TabGeometry {
  label: string
  lines: number
  isWhollyVisible: boolean
}

/**
 * Measures every tab of a strip as laid out: the lines its label's text occupies, and whether
 * the tab — scrolled into view if its strip scrolls — lies inside the strip and inside every
 * ancestor that clips (the side panel, the window).
 */
function measureTabs(strip: Locator): Promise<TabGeometry[]> {
  return strip.evaluate((element) => {
    const tabs = [...element.querySelectorAll<HTMLElement>('[role="tab"], a')]
    return tabs.map((tab) => {
      tab.scrollIntoView({ block: 'nearest', inline: 'nearest' })
      const tops = new Set<number>()
      const walker = document.createTreeWalker(tab, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const rect of range.getClientRects()) {
          if (rect.width > 0) tops.add(Math.round(rect.top))
        }
      }
      const box = tab.getBoundingClientRect()
      const inside = (outer: DOMRect) =>
        box.left >= outer.left - 0.5 &&
        box.right <= outer.right + 0.5 &&
        box.top >= outer.top - 0.5 &&
        box.bottom <= outer.bottom + 0.5
      let isWhollyVisible =
        inside(element.getBoundingClientRect()) &&
        inside(new DOMRect(0, 0, window.innerWidth, window.innerHeight))
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent)
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
          isWhollyVisible &&= inside(parent.getBoundingClientRect())
        }
      }
      return { label: tab.textContent ?? '', lines: tops.size, isWhollyVisible }
    })
  })
}

const languages = ['ko', 'zh', 'en'] as const

/**
 * Every tab strip in the console (src/pages/city/city-modules.ts, src/pages/bim4/space-modules.ts;
 * those import lingui macros, so the addresses are listed here): each city module's default tab,
 * and the building modules with more than one tab. Other screens have no tab strip.
 */
const cityModulePaths = [
  '/home/map/oblique',
  '/home/model/monomer',
  '/home/poi/manage',
  '/home/path/programming',
  '/home/location/gps',
  '/home/style/basemap',
  '/home/template/list',
  '/home/visit/tour',
]
const buildingModulePaths = ['/bim4/style/otherset', '/bim4/visit/link']

test('every tab strip keeps each label on one line and each tab in view, in ko, zh and en', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000)
  await setLanguageCookie(context, baseURL, 'en')
  const { token } = await startSignedIn(page, request, e2eAdmin.name, e2eAdmin.password)
  const cityName = `Tabs city ${Date.now()}`
  const buildingName = `Tabs building ${Date.now()}`
  await createCityProject(request, token, cityName)
  await createBuildingProject(request, token, buildingName)

  const problems: string[] = []
  async function checkStrip(strip: Locator, where: string, language: string) {
    await expect(strip).toBeVisible()
    for (const tab of await measureTabs(strip)) {
      if (tab.lines !== 1 || !tab.isWhollyVisible) {
        problems.push(
          `${language} ${where} “${tab.label}”: ${tab.lines} lines, visible whole: ${tab.isWhollyVisible}`,
        )
      }
    }
  }

  // The city editor's sub-tabs (src/ui/Tabs), module by module.
  await enterCityProject(page, cityName)
  for (const language of languages) {
    await setLanguageCookie(context, baseURL, language)
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', language)
    for (const path of cityModulePaths) {
      const moduleId = path.split('/')[2]
      await page.goto(`/#${path}`)
      const strip = page.getByTestId('city-editor').getByRole('tablist')
      await checkStrip(strip, `city ${moduleId}`, language)
      await keepScreenshot(
        page.locator('.ts-side-panel').first(),
        `shell-tabs-${language}-city-${moduleId}`,
      )
    }
  }

  // The building editor's panel tabs (modules with more than one tab show a strip).
  await setLanguageCookie(context, baseURL, 'en')
  await enterBuildingProject(page, buildingName)
  for (const language of languages) {
    await setLanguageCookie(context, baseURL, language)
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', language)
    for (const path of buildingModulePaths) {
      const moduleId = path.split('/')[2]
      await page.goto(`/#${path}`)
      const strip = page.getByTestId('bim4-editor').locator('.ts-bim4-panel__tabs')
      await checkStrip(strip, `building ${moduleId}`, language)
      await keepScreenshot(
        page.locator('.ts-side-panel').first(),
        `shell-tabs-${language}-building-${moduleId}`,
      )
    }
  }
  expect(problems).toEqual([])
})
