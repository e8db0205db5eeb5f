import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type APIRequestContext, expect } from '@playwright/test'
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
