import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PoiDetail } from '../../../contract/pois'
import { type Camera, readStreamUrl, videoRoutes } from '../../../contract/video'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { type Caller, libraryCamera, okPoi, projectTokenOf } from './pois-test-kit'
import { createProject, signInNewUser } from './project-test-kit'

/**
 * Cameras and their streams (issue 17 §8, contract/video.ts): a camera POI's `stream_url` is
 * read by the server into what the browser plays (HLS, HTTP-FLV) or the §8 reason it cannot,
 * and only callers who may read the project see its cameras.
 */

let test: TestApp
let owner: Caller
let other: Caller
let projectId: string

const app = () => test.app

async function findCameras(caller: Caller, projectid: string) {
  return callApi<Camera[]>(app(), {
    url: videoRoutes.findCameras.path,
    json: { projectid },
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
    ...(caller !== undefined && 'projectToken' in caller
      ? { headers: { projecttoken: caller.projectToken } }
      : {}),
  })
}

beforeAll(async () => {
  test = await createTestApp()
  owner = { token: await signIn(app(), testEditor) }
  other = { token: await signInNewUser(app(), 'video-other-editor') }
  const ownerToken = (owner as { token: string }).token
  projectId = (await createProject(app(), ownerToken, { name: 'Video city' })).id
  const camera = await libraryCamera(app(), ownerToken)
  const addCamera = (name: string, streamUrl: string | undefined) =>
    okPoi<PoiDetail>(app(), owner, 'creatPoi', {
      projectid: projectId,
      name,
      category_id: camera.id,
      x: 121.5,
      y: 31.2,
      ...(streamUrl === undefined
        ? {}
        : { customs: [{ property_column: 'stream_url', column_value: streamUrl }] }),
    })
  await addCamera('A gate (sample)', '/samples/hls/master.m3u8')
  await addCamera('B lobby (rtmp)', 'rtmp://cameras.example.com/live/lobby')
  await addCamera('C yard (flv)', 'https://cameras.example.com/live/yard.flv')
  await addCamera('D roof (empty)', '  ')
  await addCamera('E cellar (file)', 'file:///etc/passwd')
  await addCamera('F hall (own API)', '/web/user/findUserInfo')
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('findCameras', () => {
  it("lists a project's cameras with what to play or the §8 reason why not", async () => {
    const answer = await findCameras(owner, projectId)
    expect(answer.statusCode).toBe(200)
    const byName = Object.fromEntries(answer.envelope.datum.map((camera) => [camera.name, camera]))
    expect(byName['A gate (sample)']).toMatchObject({
      play: { kind: 'hls', url: '/samples/hls/master.m3u8' },
      problem: null,
    })
    expect(byName['B lobby (rtmp)']).toMatchObject({
      play: null,
      problem: 'video.noSuitablePlayUrl',
    })
    expect(byName['C yard (flv)']).toMatchObject({
      play: { kind: 'flv', url: 'https://cameras.example.com/live/yard.flv' },
    })
    expect(byName['D roof (empty)']).toMatchObject({ play: null, problem: 'video.noSource' })
    expect(byName['E cellar (file)']).toMatchObject({
      play: null,
      problem: 'video.unsafeStreamUrl',
    })
    expect(byName['F hall (own API)']).toMatchObject({
      play: null,
      problem: 'video.unsafeStreamUrl',
    })
    // the library camera's example address, kept by a camera made without one, plays as HLS
    expect(answer.envelope.datum).toHaveLength(6)
  })

  it('answers a project-token holder, and nobody who may not read the project', async () => {
    const shareToken = await projectTokenOf(app(), (owner as { token: string }).token, {
      id: projectId,
    } as never)
    expect((await findCameras({ projectToken: shareToken }, projectId)).statusCode).toBe(200)
    const refused = await findCameras(other, projectId)
    expect(refused.statusCode).toBeGreaterThanOrEqual(400)
    expect(refused.envelope.datum).toBeFalsy()
    expect((await findCameras(undefined, projectId)).statusCode).toBeGreaterThanOrEqual(400)
    const malformed = await callApi(app(), {
      url: videoRoutes.findCameras.path,
      json: { projectid: 42 },
      token: (owner as { token: string }).token,
    })
    expect(malformed.statusCode).toBe(400)
  })
})

describe('readStreamUrl', () => {
  it('reads HLS, FLV and paths of the product, and refuses what a browser must not load', () => {
    expect(readStreamUrl('https://cdn.example.com/live/cam1/index.m3u8?token=abc')).toEqual({
      source: { kind: 'hls', url: 'https://cdn.example.com/live/cam1/index.m3u8?token=abc' },
      problem: null,
    })
    expect(readStreamUrl('http://192.168.1.20/hls/cam')).toMatchObject({
      source: { kind: 'hls' },
    })
    expect(readStreamUrl('HTTP://cam.example.com/a.FLV').source?.kind).toBe('flv')
    expect(readStreamUrl('rtmps://cam.example.com/live').problem).toBe('video.noSuitablePlayUrl')
    for (const unsafe of [
      'javascript:alert(1)',
      'data:application/vnd.apple.mpegurl;base64,AAAA',
      'https://user:secret@cam.example.com/a.m3u8',
      '//evil.example.com/a.m3u8',
      '/api/v1/token/telemetry',
      'ftp://cam.example.com/a.m3u8',
      'not a url at all',
    ]) {
      expect(readStreamUrl(unsafe).problem, unsafe).toBe('video.unsafeStreamUrl')
    }
  })
})
