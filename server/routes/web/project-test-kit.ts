import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { Envelope } from '../../../contract/envelope'
import type { UploadJpgDatum } from '../../../contract/files'
import type { CreateProjectBody, Project } from '../../../contract/project'
import { callApi, signIn } from '../../testing/test-app'

/**
 * Helpers for the project area's route tests: real image files, multipart bodies for
 * `inject`, and a census of the file store. Test-only (no test runs from this file itself).
 */

const sharedData = new URL('../../../../shared/data/', import.meta.url)

/** A real 1×1 JPEG and PNG from the shared test data, and a GLB to rename as a "photo". */
export async function sampleFiles() {
  const read = (path: string) => readFile(new URL(path, sharedData))
  return {
    jpeg: await read('3dtiles/tools/contentTypes/content.jpg'),
    png: await readFile(new URL('../../resources/cases/building-cover.png', import.meta.url)),
    glb: await read('gltf/Duck/Duck.glb'),
  }
}

/** One part of a multipart body. */
export interface MultipartPart {
  name: string
  value: string | Buffer
  fileName?: string
  contentType?: string
}

const boundary = '----twinscape-test-boundary'

/** The bytes of a multipart/form-data body and its content type. */
export function multipartBody(parts: readonly MultipartPart[]): {
  body: Buffer
  contentType: string
} {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition =
      part.fileName === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.fileName}"`
    const type =
      part.fileName === undefined
        ? ''
        : `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`))
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value)
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Posts a multipart body; the answer's status and envelope. */
export async function postMultipart<Datum>(
  app: FastifyInstance,
  url: string,
  token: string,
  parts: readonly MultipartPart[],
): Promise<{ statusCode: number; envelope: Envelope<Datum> }> {
  const { body, contentType } = multipartBody(parts)
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { token, 'content-type': contentType },
    payload: body,
  })
  return { statusCode: response.statusCode, envelope: response.json() as Envelope<Datum> }
}

/**
 * Starts a multipart upload whose body arrives in two halves: the first half now, the rest when
 * `finish` is called, so a test can act while the upload is in flight.
 */
export function startSlowUpload(
  app: FastifyInstance,
  url: string,
  token: string,
  parts: readonly MultipartPart[],
) {
  const { body, contentType } = multipartBody(parts)
  const stream = new PassThrough()
  const half = Math.floor(body.length / 2)
  stream.write(body.subarray(0, half))
  const answer = app.inject({
    method: 'POST',
    url,
    headers: { token, 'content-type': contentType, 'content-length': String(body.length) },
    payload: stream,
  })
  return {
    answer,
    finish() {
      stream.end(body.subarray(half))
    },
  }
}

/** Uploads an image with `/upload/uploadJpg`; fails the test unless it is accepted. */
export async function uploadImage(
  app: FastifyInstance,
  token: string,
  image: Buffer,
  fileName = 'cover.png',
): Promise<UploadJpgDatum> {
  const answer = await postMultipart<UploadJpgDatum>(app, '/web/upload/uploadJpg', token, [
    { name: 'purpose', value: 'project-cover' },
    { name: 'file', value: image, fileName, contentType: 'image/png' },
  ])
  if (answer.envelope.code !== '0') throw new Error(`upload failed: ${answer.envelope.message}`)
  return answer.envelope.datum
}

/** A valid create body around an uploaded cover. */
export function projectBody(coverUuid: string, overrides: Partial<CreateProjectBody> = {}) {
  return {
    kind: 'city' as const,
    name: 'Harbour district',
    detailedaddress: 'Pudong, Shanghai, China',
    description: 'Digital twin of the harbour',
    prewiewpath_uuid: coverUuid,
    project_center: { lng: 121.6, lat: 31.2 },
    ...overrides,
  }
}

/** Creates a project through the API; fails the test unless it is created. */
export async function createProject(
  app: FastifyInstance,
  token: string,
  overrides: Partial<CreateProjectBody> = {},
  cover?: UploadJpgDatum,
): Promise<Project> {
  const image = cover ?? (await uploadImage(app, token, (await sampleFiles()).png))
  const answer = await callApi<Project>(app, {
    url: '/web/project/addProject',
    token,
    json: projectBody(image.uuid, overrides),
  })
  if (answer.envelope.code !== '0') throw new Error(`create failed: ${answer.envelope.message}`)
  return answer.envelope.datum
}

/** Creates an account of a role through the users service and signs it in. */
export async function signInNewUser(
  app: FastifyInstance,
  name: string,
  role: 'editor' | 'guest' | 'admin' = 'editor',
): Promise<string> {
  const password = `${name}-password-123`
  await app.deps.services.users.createUser({ name, password, role })
  return signIn(app, { name, password })
}

/** The content hashes in the file store (leftover temporary files count too, to catch leaks). */
export async function storedFiles(filesDir: string): Promise<string[]> {
  const names: string[] = []
  for (const entry of await readdir(filesDir)) {
    const path = join(filesDir, entry)
    if ((await stat(path)).isDirectory()) names.push(...(await readdir(path)))
    else names.push(entry)
  }
  return names.sort()
}
