import { expect, test } from '@playwright/test'
import { enableTestApi } from './support/accounts'
import {
  canvasIsNotBlank,
  createBuildingProject,
  enterBuildingProject,
  openSpaceModule,
} from './support/building'
import { createEditor, postApi, signInThroughPage, chooseEnglish } from './project-helpers'

/**
 * Issue 19's visit side as people meet it: an editor captures the view of a building project
 * and creates a share link; someone with the link opens it in a fresh browser without signing
 * in and sees the scene drawn, the project's name, "Read-only preview" and the saved view;
 * the owner revokes the links and the open preview ends on a screen that says so.
 */
test('a share link opens a read-only preview without signing in; revoking ends it', async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000)
  await chooseEnglish(context, baseURL)
  await enableTestApi(page)
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const projectName = `Visited ${Date.now()}`
  const projectId = await createBuildingProject(request, signedIn.datum.token, projectName)

  await signInThroughPage(page, account)
  await enterBuildingProject(page, projectName)
  await openSpaceModule(page, 'Visit')

  // a capture of the current view, listed with its image
  await page.getByRole('link', { name: 'Preview' }).click()
  await page.getByRole('button', { name: 'Screen capture' }).click()
  const captures = page.getByRole('list', { name: 'Captures' })
  await expect(captures.getByRole('img', { name: 'View 1' })).toBeVisible()
  await expect
    .poll(() =>
      captures
        .getByRole('img', { name: 'View 1' })
        .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
    )
    .toBe(true)

  await page.getByRole('link', { name: 'Link browsing' }).click()
  await page.getByRole('button', { name: 'Create share link' }).click()
  const shareField = page.getByTestId('share-link')
  await expect(shareField).toHaveValue(/outPreview\?project_id=/)
  const shareLink = await shareField.inputValue()
  await expect(page.getByRole('img', { name: 'QR code of the share link' })).toBeVisible()

  // a visitor: a fresh browser, never signed in
  const visitorContext = await browser.newContext()
  await chooseEnglish(visitorContext, baseURL)
  const visitor = await visitorContext.newPage()
  const visitorErrors: string[] = []
  visitor.on('pageerror', (error) => visitorErrors.push(error.message))
  await visitor.goto(shareLink)
  const preview = visitor.getByTestId('preview')
  // the first visit loads the scene's chunk (the engine) on a cold cache
  await expect(preview.getByTestId('preview-title')).toHaveText(projectName, { timeout: 60_000 })
  await expect(preview.getByText('Read-only preview')).toBeVisible()
  await expect(preview.getByRole('button', { name: 'View 1' })).toBeVisible()
  await expect(preview.getByRole('button', { name: 'Play tour' })).toBeVisible()
  // no editing chrome: no sidebar, no module panel
  await expect(visitor.getByTestId('bim4-editor')).toHaveCount(0)
  await expect.poll(() => canvasIsNotBlank(preview.locator('canvas'))).toBe(true)
  expect(new URL(visitor.url()).hash).toContain('/bim4/outPreview')

  // the owner revokes every link: the open preview ends within its next check (≤ 30 s)
  const revoked = await postApi(
    request,
    'project/revokeProjectTokens',
    { id: projectId },
    signedIn.datum.token,
  )
  expect(revoked.code, revoked.message).toBe('0')
  const ended = visitor.getByTestId('preview-ended')
  await expect(ended.getByRole('heading', { name: 'This preview link has ended' })).toBeVisible({
    timeout: 45_000,
  })
  // the scene is gone, not left frozen behind the message
  await expect(visitor.getByTestId('preview')).toHaveCount(0)
  expect(visitorErrors).toEqual([])
  await visitorContext.close()
})
