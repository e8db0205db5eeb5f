import { randomBytes } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test'
import { e2eAdmin } from '../playwright.config'

/**
 * Steps of the project specs. Users are made the way an operator would (the admin's
 * `/web/user/insertUser`), and everything after that goes through the UI by role and label.
 */

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** A file of the shared test data (../shared/data), e.g. a cover image. */
export function sharedDataFile(relativePath: string): string {
  return resolve(repositoryRoot, '..', 'shared', 'data', relativePath)
}

/** The envelope every `/web/` answer carries. */
export interface Envelope<Datum = unknown> {
  code: string
  message: string
  datum: Datum
}

/** POSTs JSON to `/web/<path>` (with a token when given) and answers the envelope. */
export async function postApi<Datum>(
  request: APIRequestContext,
  path: string,
  body: Record<string, unknown>,
  token?: string,
): Promise<Envelope<Datum>> {
  const response = await request.post(`/web/${path}`, {
    data: body,
    headers: token ? { Token: token } : {},
  })
  return (await response.json()) as Envelope<Datum>
}

/**
 * A new editor account nobody else uses (so its lists start empty), created by the seeded admin;
 * answers its name and password.
 */
export async function createEditor(
  request: APIRequestContext,
): Promise<{ name: string; password: string }> {
  const admin = await postApi<{ token: string }>(request, 'login', e2eAdmin)
  expect(admin.code, admin.message).toBe('0')
  const account = {
    name: `projects-${randomBytes(4).toString('hex')}`,
    password: `Projects-e2e-${randomBytes(6).toString('hex')}`,
  }
  const created = await postApi(
    request,
    'user/insertUser',
    { ...account, role: 'editor' },
    admin.datum.token,
  )
  expect(created.code, created.message).toBe('0')
  await postApi(request, 'logout', {}, admin.datum.token)
  return account
}

/** Opens the console in English (it starts in ko without the `language` cookie). */
export async function chooseEnglish(context: BrowserContext, baseURL: string | undefined) {
  if (!baseURL) throw new Error('playwright.config.ts sets baseURL')
  await context.addCookies([{ name: 'language', value: 'en', url: baseURL }])
}

/**
 * A toast's message by its text (a string matches it exactly). Radix also announces each toast
 * for a moment in a live region with a prefix; this finds only the toast itself.
 */
export function toastMessage(page: Page, text: string | RegExp): Locator {
  return page
    .locator('.ts-toast__message')
    .filter({ hasText: typeof text === 'string' ? new RegExp(`^${escapeRegExp(text)}$`) : text })
    .first()
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Signs in through the sign-in page (English labels). */
export async function signInThroughPage(page: Page, account: { name: string; password: string }) {
  await page.goto('/#/login')
  await page.getByRole('textbox', { name: 'User name', exact: true }).fill(account.name)
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/**
 * Refuses every request that would leave this machine (the product must work with the network
 * unplugged) and answers the addresses that were attempted, so a spec can assert there were none.
 * Routed on the context, so the map's web worker is covered as well as the page.
 */
export async function blockRemoteRequests(context: BrowserContext): Promise<string[]> {
  const attempted: string[] = []
  await context.route(
    (url) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname),
    async (route) => {
      attempted.push(route.request().url())
      await route.abort('internetdisconnected')
    },
  )
  return attempted
}

/** How a canvas looks: how many distinct colours, and the share of the most common one. */
export interface CanvasColours {
  distinctColours: number
  dominantShare: number
  /** Share of pixels within a small distance of each asked colour (`#rrggbb`). */
  shareOf: Record<string, number>
}

/**
 * Reads what a WebGL canvas shows by copying it onto a 2D canvas in the page. The map picker
 * keeps its drawing buffer (`preserveDrawingBuffer`) so this sees the last frame; a screenshot
 * would too, but costs seconds per call on SwiftShader.
 */
export async function canvasColours(
  canvas: Locator,
  colours: string[],
  tolerance = 12,
): Promise<CanvasColours> {
  return canvas.evaluate(
    (source: HTMLCanvasElement, { colours, tolerance }) => {
      const copy = document.createElement('canvas')
      copy.width = source.width
      copy.height = source.height
      const context = copy.getContext('2d')
      if (!context) throw new Error('no 2D context to read the canvas')
      context.drawImage(source, 0, 0)
      const { data } = context.getImageData(0, 0, copy.width, copy.height)
      const counts = new Map<number, number>()
      const targets = colours.map((hex) => {
        const value = Number.parseInt(hex.slice(1), 16)
        return { hex, rgb: [(value >> 16) & 255, (value >> 8) & 255, value & 255], count: 0 }
      })
      for (let index = 0; index < data.length; index += 4) {
        const red = data[index] ?? 0
        const green = data[index + 1] ?? 0
        const blue = data[index + 2] ?? 0
        const key = (red << 16) | (green << 8) | blue
        counts.set(key, (counts.get(key) ?? 0) + 1)
        for (const target of targets) {
          const [r = 0, g = 0, b = 0] = target.rgb
          if (Math.abs(red - r) + Math.abs(green - g) + Math.abs(blue - b) < tolerance)
            target.count++
        }
      }
      const total = Math.max(1, data.length / 4)
      return {
        distinctColours: counts.size,
        dominantShare: Math.max(0, ...counts.values()) / total,
        shareOf: Object.fromEntries(targets.map((target) => [target.hex, target.count / total])),
      }
    },
    { colours, tolerance },
  )
}

/** Chooses `names` in the region cascade of a form, one level after the other. */
export async function chooseRegions(form: Locator, names: string[]) {
  const levels = ['Province', 'City', 'District', 'Street']
  for (const [level, name] of names.entries()) {
    await form.getByRole('combobox', { name: levels[level], exact: true }).click()
    // Radix renders the options in a portal outside the form
    await form.page().getByRole('option', { name, exact: true }).click()
  }
}
