import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import type { Envelope } from './accounts'

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A file of the shared test data (../shared/data). */
export function sharedData(relativePath: string): string {
  return resolve(repositoryRoot, '..', 'shared', 'data', relativePath)
}

/**
 * Creates a project of either kind owned by the token's user at the SPEC §9 default centre, with
 * a cover uploaded through `/web/upload/uploadJpg` (a project needs one, SPEC §5); answers its
 * id. Specs that are not about the project form start from here.
 */
export async function createProjectThroughApi(
  request: APIRequestContext,
  token: string,
  project: {
    kind: 'city' | 'building'
    name: string
    detailedaddress: string
    description: string
  },
): Promise<string> {
  const cover = await readFile(sharedData('gltf/Duck/DuckCM.png'))
  const uploaded = await request.post('/web/upload/uploadJpg', {
    headers: { Token: token },
    multipart: {
      purpose: 'project-cover',
      file: { name: 'cover.png', mimeType: 'image/png', buffer: cover },
    },
  })
  const coverEnvelope = (await uploaded.json()) as Envelope<{ uuid: string }>
  expect(coverEnvelope.code, coverEnvelope.message).toBe('0')
  const created = await request.post('/web/project/addProject', {
    headers: { Token: token },
    data: {
      ...project,
      prewiewpath_uuid: coverEnvelope.datum.uuid,
      project_center: { lng: 121.6, lat: 31.2 },
    },
  })
  const projectEnvelope = (await created.json()) as Envelope<{ id: string }>
  expect(projectEnvelope.code, projectEnvelope.message).toBe('0')
  return projectEnvelope.datum.id
}

/** What differs between the two editors for the steps below. */
const editorOf = {
  city: {
    listPath: '/#/projectManage/bim',
    listTestId: 'project-list-city',
    editorTestId: 'city-editor',
    navigation: 'City project',
    sample: { detailedaddress: 'Harbour road 1', description: 'A city for the e2e specs' },
  },
  building: {
    listPath: '/#/projectManage/bim?kind=space',
    listTestId: 'project-list-building',
    editorTestId: 'bim4-editor',
    navigation: 'Space project',
    sample: { detailedaddress: 'Test street 1', description: 'A building for the e2e specs' },
  },
} as const

/** Creates a project of the kind with sample address and description; answers its id. */
export function createSampleProject(
  request: APIRequestContext,
  token: string,
  kind: 'city' | 'building',
  name: string,
): Promise<string> {
  return createProjectThroughApi(request, token, { kind, name, ...editorOf[kind].sample })
}

/** Enters a project from the project home, as a user does (city: /home/map, building: /bim4/poi). */
export async function enterProject(
  page: Page,
  kind: 'city' | 'building',
  projectName: string,
): Promise<void> {
  const editor = editorOf[kind]
  await page.goto(editor.listPath)
  await page
    .getByTestId(editor.listTestId)
    .getByRole('button', { name: `Enter ${projectName}` })
    .first()
    .click()
  // the editor is the app's largest lazy chunk: on a busy machine it takes longer than 10 s
  await expect(page.getByTestId(editor.editorTestId)).toBeVisible({ timeout: 30_000 })
}

/** Opens a module of the editor's sidebar by its label. */
export async function openEditorModule(
  page: Page,
  kind: 'city' | 'building',
  label: string,
): Promise<void> {
  await page
    .getByRole('navigation', { name: editorOf[kind].navigation })
    .getByRole('link', { name: label, exact: true })
    .click()
}
