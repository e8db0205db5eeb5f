import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../contract/envelope'
import { uploadIdOfLocation } from '../contract/resumable-upload'
import { type TwoProcesses, startTwoProcesses } from './testing/two-processes'

/**
 * Issue 22 item 2: two server processes on one PostgreSQL (and one DATA_DIR), behind a proxy
 * that alternates requests. A user signs in on one and is known to the other, a project made
 * through one is listed by the other, and a resumable upload survives its process being killed
 * in the middle of a PATCH: the user's calls carry on through the survivor, the upload resumes
 * from the offset the survivor reports, and the file it takes is whole.
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

  it('resumes an upload through the survivor when its process is killed mid-request', async () => {
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
    const uploadPath = `/web/upload/resumable/${uploadId}`
    const patchHeaders = (offset: number) => ({
      ...tus,
      ...signedIn(),
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    })
    const offsetOn = async (baseUrl: string) => {
      const answer = await fetch(`${baseUrl}${uploadPath}`, {
        method: 'HEAD',
        headers: { ...tus, ...signedIn() },
      })
      return Number(answer.headers.get('upload-offset'))
    }
    const quarter = Math.floor(gml.length / 4)
    const half = Math.floor(gml.length / 2)

    // process 0 takes the first quarter, then a PATCH whose body stops halfway through the file
    // (the client's connection stalls): process 0 is killed while that request is still open
    const first = await fetch(`${pair.processes[0].baseUrl}${uploadPath}`, {
      method: 'PATCH',
      headers: patchHeaders(0),
      body: new Uint8Array(gml.subarray(0, quarter)),
    })
    expect(first.status).toBe(204)
    const target = new URL(pair.processes[0].baseUrl)
    const stalled = request({
      host: target.hostname,
      port: target.port,
      method: 'PATCH',
      path: uploadPath,
      headers: { ...patchHeaders(quarter), 'content-length': String(gml.length - quarter) },
    })
    const stalledEnd = new Promise<string>((resolveEnd) => {
      stalled.on('error', (error) => resolveEnd(error.message))
      stalled.on('response', (answer) => resolveEnd(`answered ${answer.statusCode}`))
    })
    stalled.write(gml.subarray(quarter, half))
    // the survivor sees the bytes process 0 has written so far (the offset is the file's size)
    await expect
      .poll(() => offsetOn(pair.processes[1].baseUrl), { timeout: 30_000 })
      .toBeGreaterThan(quarter)
    await pair.kill(0)
    expect(await stalledEnd).not.toMatch(/^answered/)

    // the user's session and projects carry on through the survivor
    const counts = await call<Record<string, number>>(
      '/web/project/findProjectCounts',
      {},
      signedIn(),
    )
    expect(counts.code).toBe('0')
    // the client asks where the upload stands and sends the rest from there, through the proxy
    const offset = await offsetOn(pair.baseUrl)
    expect(offset).toBeGreaterThan(quarter)
    expect(offset).toBeLessThanOrEqual(half)
    const rest = await fetch(`${pair.baseUrl}${uploadPath}`, {
      method: 'PATCH',
      headers: patchHeaders(offset),
      body: new Uint8Array(gml.subarray(offset)),
    })
    expect(rest.status).toBe(204)
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
    // the file the survivor took is whole: the GML parses to its 7 rooms
    expect(taken.code).toBe('0')
    expect(taken.datum).toMatchObject({
      file_name: gmlName,
      state_count: 7,
      size_bytes: gml.length,
    })
  })
})
