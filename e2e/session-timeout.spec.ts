import { expect, test } from '@playwright/test'
import {
  callApi,
  e2eAdmin,
  enableTestApi,
  hashPathOf,
  pageToken,
  signInLabels,
  setLanguageCookie,
  startSignedIn,
} from './support/accounts'

/**
 * SPEC §8 "Session timeout". Waiting out the 30-minute idle window is not an option in a test,
 * so the spec ends the session on the server (sign-out with the page's own token, which revokes
 * it; an expired and a revoked token both answer '2011') and lets the page make its next call.
 */
const cases = [
  {
    language: 'en',
    message: 'Login timed out, please log in again',
    securityLink: 'Security info',
  },
  {
    language: 'ko',
    message: '로그인 시간이 초과되었습니다. 다시 로그인해 주세요',
    securityLink: '보안 정보',
  },
] as const

for (const { language, message, securityLink } of cases) {
  test(`a dead token gets 2011, then the timeout message and sign-in show (${language})`, async ({
    page,
    context,
    baseURL,
    request,
  }) => {
    await setLanguageCookie(context, baseURL, language)
    await enableTestApi(page)
    const { token } = await startSignedIn(page, request, e2eAdmin.name, e2eAdmin.password)
    await page.goto('/#/projectManage/bim')
    await expect(page.getByRole('link', { name: securityLink, exact: true })).toBeVisible()
    expect(await pageToken(page)).toBe(token)

    const signOut = await callApi(request, '/logout', {}, token)
    expect(signOut.envelope.code).toBe('0')
    const afterRevoke = await callApi(request, '/user/findUserName', {}, token)
    expect(afterRevoke.status).toBe(401)
    expect(afterRevoke.envelope.code).toBe('2011')

    // Any call the page makes now meets the dead token: opening another page refreshes it. (The
    // page's own background calls may meet it first and leave the link's page; go by address.)
    await page.evaluate(() => {
      window.location.hash = '#/system/security'
    })

    await expect(page.getByText(message, { exact: true }).first()).toBeVisible()
    await expect
      .poll(() => hashPathOf(page))
      .toBe(`/login?redirect=${encodeURIComponent('/system/security')}`)
    await expect(
      page.getByRole('button', { name: signInLabels[language].submit, exact: true }),
    ).toBeVisible()
    const session = await page.evaluate(() => window.__twinTest?.getSession())
    expect(session).toMatchObject({ isOverTime: true, isSignedIn: false, token: null })
  })
}
