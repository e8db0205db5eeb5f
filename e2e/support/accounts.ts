import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test'
import { e2eAdmin } from '../../playwright.config'

/**
 * Shared steps of the account specs. Everything here goes through what a user or the server's
 * public API offers: the UI by role and label, `/web/` calls with a `Token` header, and the
 * outbox file the local SMS provider writes (never a code taken from an API answer).
 */

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Where the server of playwright.config.ts writes every SMS and e-mail it "sends". */
export const outboxFile = resolve(repositoryRoot, '.tmp/e2e-data/outbox.jsonl')

/** The seeded admin of playwright.config.ts. */
export { e2eAdmin }

/** One line of the outbox: `{"to":…,"text":…,"at":…}`. */
export interface OutboxMessage {
  to: string
  text: string
  at: string
}

/** Every message in the outbox so far, oldest first; empty before the first one is sent. */
export async function readOutbox(): Promise<OutboxMessage[]> {
  let text: string
  try {
    text = await readFile(outboxFile, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OutboxMessage)
}

/** The messages sent to one address (phone number or e-mail), oldest first. */
export async function messagesSentTo(to: string): Promise<OutboxMessage[]> {
  return (await readOutbox()).filter((message) => message.to === to)
}

/** The 6-digit code a message carries. */
export function codeInMessage(message: OutboxMessage): string {
  const match = /\b(\d{6})\b/.exec(message.text)
  if (!match?.[1]) throw new Error(`no 6-digit code in outbox message: ${message.text}`)
  return match[1]
}

/**
 * Runs `send` (which asks for a code in the UI or through the API) and answers the code of the
 * message it caused, waiting for the server to append it to the outbox.
 */
export async function codeSentBy(to: string, send: () => Promise<unknown>): Promise<string> {
  const countBefore = (await messagesSentTo(to)).length
  await send()
  await expect
    .poll(async () => (await messagesSentTo(to)).length, {
      message: `an outbox message to ${to}`,
    })
    .toBeGreaterThan(countBefore)
  const messages = await messagesSentTo(to)
  return codeInMessage(messages[messages.length - 1] as OutboxMessage)
}

/**
 * A phone number no other spec or run uses: a Chinese mobile shape (1 + ten digits), the last
 * eight from the clock and a random part, so two specs of one run never collide.
 */
export function uniqueTel(): string {
  const clockPart = Date.now() % 1_000_000
  const randomPart = Math.floor(Math.random() * 100)
  return `139${String(clockPart).padStart(6, '0')}${String(randomPart).padStart(2, '0')}`
}

/** The console starts in ko without a cookie; specs that read English labels set it first. */
export async function setLanguageCookie(
  context: BrowserContext,
  baseURL: string | undefined,
  language: Language,
): Promise<void> {
  if (!baseURL) throw new Error('playwright.config.ts sets baseURL')
  await context.addCookies([{ name: 'language', value: language, url: baseURL }])
}

/** Exposes `window.__twinTest` in this page (it reads `localStorage.twinTest` at load). */
export async function enableTestApi(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('twinTest', '1'))
}

/** The current route's full path inside the hash, e.g. `/login?redirect=%2Fnote`. */
export function hashPathOf(page: Page): string {
  const { hash } = new URL(page.url())
  return hash.replace(/^#/, '')
}

/**
 * A text or password input by its accessible name. Not `getByLabel`: the visible label carries
 * a required mark (`User name*`), and a password's show/hide toggle mentions "password" too.
 */
export function textbox(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true })
}

/** The console's languages, as the `language` cookie spells them. */
export type Language = 'ko' | 'zh' | 'en'

/** The sign-in form's labels in each language (the pages catalog, src/i18n/locales). */
export const signInLabels: Record<
  Language,
  { userName: string; password: string; submit: string }
> = {
  en: { userName: 'User name', password: 'Password', submit: 'Sign in' },
  ko: { userName: '사용자 이름', password: '비밀번호', submit: '로그인' },
  zh: { userName: '用户名', password: '密码', submit: '登录' },
}

/** Fills the sign-in form (labels of the given language, English by default) and submits it. */
export async function signInThroughForm(
  page: Page,
  name: string,
  password: string,
  language: Language = 'en',
) {
  const labels = signInLabels[language]
  await textbox(page, labels.userName).fill(name)
  await textbox(page, labels.password).fill(password)
  await page.getByRole('button', { name: labels.submit, exact: true }).click()
}

/** The envelope every `/web/` answer carries. */
export interface Envelope<Datum = unknown> {
  code: string
  message: string
  datum: Datum
}

/** POSTs JSON to `/web/<path>` with an optional token and answers the HTTP status and body. */
export async function callApi<Datum = unknown>(
  request: APIRequestContext,
  path: string,
  body: Record<string, unknown> = {},
  token?: string,
): Promise<{ status: number; envelope: Envelope<Datum> }> {
  const response = await request.post(`/web/${path.replace(/^\//, '')}`, {
    data: body,
    headers: token ? { Token: token } : {},
  })
  return { status: response.status(), envelope: (await response.json()) as Envelope<Datum> }
}

/** Signs in through `/web/login` and answers the token. */
export async function apiSignIn(
  request: APIRequestContext,
  name: string,
  password: string,
): Promise<string> {
  const { envelope } = await callApi<{ token: string }>(request, '/login', { name, password })
  expect(envelope.code, envelope.message).toBe('0')
  return envelope.datum.token
}

/** The token the page holds, read through the test API. */
export async function pageToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.__twinTest?.getSession().token ?? null)
  if (!token) throw new Error('the page holds no token (is the test API enabled and signed in?)')
  return token
}

/**
 * Signs in through `/web/login` and hands the session to the page the way the console keeps it
 * (localStorage `token`, `signin_status`, `user_data`, see src/state/session.ts), so a spec
 * about something else skips the sign-in screen. Applied on the tab's first load only: a later
 * reload finds whatever the console itself left there (e.g. nothing after a sign-out).
 */
export async function startSignedIn(
  page: Page,
  request: APIRequestContext,
  name: string,
  password: string,
): Promise<{ token: string }> {
  const { envelope } = await callApi<{ token: string; user: unknown }>(request, '/login', {
    name,
    password,
  })
  expect(envelope.code, envelope.message).toBe('0')
  await page.addInitScript((datum) => {
    if (sessionStorage.getItem('e2eSessionSeeded')) return
    sessionStorage.setItem('e2eSessionSeeded', '1')
    localStorage.setItem('token', datum.token)
    localStorage.setItem('signin_status', '1')
    localStorage.setItem('user_data', JSON.stringify(datum.user))
  }, envelope.datum)
  return { token: envelope.datum.token }
}
