import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../contract/envelope'
import { uploadIdOfLocation } from '../contract/resumable-upload'
import { type TwoProcesses, startTwoProcesses } from './testing/two-processes'

/**
 * Issue 22 item 2: two server processes on one PostgreSQL (and one DATA_DIR), behind a proxy
 * that alternates requests. A user signs in on one and is known to the other, a project made
 * through one is listed by the other, and a resumable upload started on both survives one of
 * them being killed: the rest goes through the survivor, which takes the file.
 */

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined
const admin = { name: 'admin', password: 'pair-admin-password' }
const gmlName = 'KU-EngBuilding-IndoorGML-2019-02-12_with_NRG.gml'
const tus = { 'tus-resumable': '1.0.0' }

describe.skipIf(postgresUrl === undefined)('two server processes on one PostgreSQL', () => {
  let pair: TwoProcesses
  let token: string
  let projectId: string

  /** One call through the proxy, answered by whichever process's turn it is. */
  const call = async <Datum>(path: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${pair.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    return (await answer.json()) as Envelope<Datum>
  }
  const signedIn = () => ({ token })

  beforeAll(async () => {
    // both start at once on an empty schema: they migrate and seed one after the other
    pair = await startTwoProcesses({
      databaseUrl: postgresUrl!,
      env: { ADMIN_NAME: admin.name, ADMIN_PASSWORD: admin.password, MQTT: 'off' },
    })
    const signIn = await call<{ token: string }>('/web/login', admin)
    expect(signIn.code).toBe('0')
    token = signIn.datum.token
  }, 180_000)

  afterAll(async () => {
    await pair?.close()
  })

  it('serves one user, one session and one set of projects from both processes', async () => {
    for (const running of pair.processes) {
      expect((await fetch(`${running.baseUrl}/web/health`)).status).toBe(200)
    }
    const cover = new FormData()
    cover.append('purpose', 'project-cover')
    const png = await readFile(new URL('resources/cases/building-cover.png', import.meta.url))
    cover.append('file', new Blob([png], { type: 'image/png' }), 'cover.png')
    const uploaded = (await (
      await fetch(`${pair.baseUrl}/web/upload/uploadJpg`, {
        method: 'POST',
        headers: signedIn(),
        body: cover,
      })
    ).json()) as Envelope<{ uuid: string }>
    expect(uploaded.code).toBe('0')
    const countOf = async () => {
      const counts = await call<Record<string, number>>(
        '/web/project/findProjectCounts',
        {},
        signedIn(),
      )
      expect(counts.code).toBe('0')
      return Object.values(counts.datum).reduce((sum, count) => sum + count, 0)
    }
    // the seeded project cases, seeded once although both processes started on an empty schema
    const seeded = await countOf()
    expect(await countOf()).toBe(seeded)
    const created = await call<{ id: string }>(
      '/web/project/addProject',
      {
        kind: 'building',
        name: 'Engineering building',
        detailedaddress: 'Seoul, Korea',
        description: 'Two processes',
        prewiewpath_uuid: uploaded.datum.uuid,
        project_center: { lng: 127.03, lat: 37.59 },
      },
      signedIn(),
    )
    expect(created.code).toBe('0')
    projectId = created.datum.id
    // each of the next two calls lands on a different process: both see the new project
    expect(await countOf()).toBe(seeded + 1)
    expect(await countOf()).toBe(seeded + 1)
    expect(pair.served[0]).toBeGreaterThan(0)
    expect(pair.served[1]).toBeGreaterThan(0)
  })

  it('resumes an upload through the survivor when one process is killed', async () => {
    const gml = await readFile(new URL(`../../shared/data/indoorgml/${gmlName}`, import.meta.url))
    const created = await fetch(`${pair.baseUrl}/web/upload/resumable`, {
      method: 'POST',
      headers: {
        ...tus,
        ...signedIn(),
        'upload-length': String(gml.length),
        'upload-metadata': `filename ${Buffer.from(gmlName).toString('base64')},purpose ${Buffer.from('gml').toString('base64')}`,
      },
    })
    expect(created.status).toBe(201)
    const uploadId = uploadIdOfLocation(String(created.headers.get('location')))!
    const half = Math.floor(gml.length / 2)
    const patch = (offset: number, bytes: Buffer) =>
      fetch(`${pair.baseUrl}/web/upload/resumable/${uploadId}`, {
        method: 'PATCH',
        headers: {
          ...tus,
          ...signedIn(),
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(bytes),
      })
    expect((await patch(0, gml.subarray(0, half))).status).toBe(204)

    await pair.kill(0)
    const offsetAnswer = await fetch(`${pair.baseUrl}/web/upload/resumable/${uploadId}`, {
      method: 'HEAD',
      headers: { ...tus, ...signedIn() },
    })
    expect(offsetAnswer.headers.get('upload-offset')).toBe(String(half))
    expect((await patch(half, gml.subarray(half))).status).toBe(204)
    const form = new FormData()
    form.append('project_id', projectId)
    form.append('upload_id', uploadId)
    const taken = (await (
      await fetch(`${pair.baseUrl}/web/upload/uploadGml`, {
        method: 'POST',
        headers: signedIn(),
        body: form,
      })
    ).json()) as Envelope<{ file_name: string; state_count: number; size_bytes: number }>
    expect(taken.code).toBe('0')
    expect(taken.datum).toMatchObject({
      file_name: gmlName,
      state_count: 7,
      size_bytes: gml.length,
    })
  })
})
