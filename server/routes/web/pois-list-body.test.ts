import { setImmediate as nextTurn } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CreatedPoisDatum } from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import type { Template } from '../../../contract/templates'
import { poiListThreadMinBytes } from '../../modules/pois/poi-list-body-job'
import { createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { createProject } from './project-test-kit'
import {
  type Caller,
  callPoi,
  countPois,
  expectRefused,
  libraryCamera,
  okPoi,
} from './pois-test-kit'

/**
 * The bodies of the POI list calls (issue 13: up to 64 MiB of JSON for 100,000 POIs): a large
 * one is parsed and validated in a worker thread, as a job of the editor in the job queue's CPU
 * lane, and answered exactly as a small one parsed on the request thread.
 */

let test: TestApp
let owner: Caller
let city: Project
let camera: Template

beforeAll(async () => {
  test = await createTestApp()
  const token = await signIn(test.app, testEditor)
  owner = { token }
  city = await createProject(test.app, token, { name: 'POI list city' })
  camera = await libraryCamera(test.app, token)
})
afterAll(async () => {
  await test?.close()
})

/** `count` POIs whose JSON is over the size parsed on the request thread. */
const bigList = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: `Lamp ${index} ${'of the long avenue '.repeat(4)}`,
    category_id: camera.id,
    x: 121 + index * 1e-6,
    y: 31,
    devicecode: `L-${index}`,
  }))

describe('a large list body', () => {
  it('is parsed as a job of the editor while health is answered, and refused naming the item', async () => {
    // the largest list the contract takes, its last item wrong
    const list: Record<string, unknown>[] = Array.from({ length: 100_000 }, (_, index) => ({
      name: `P${index}`,
      category_id: camera.id,
      x: 121,
      y: 31,
    }))
    list[99_999] = { ...list[99_999], x: 'east' }
    const jobs = test.app.deps.jobs
    const answering = callPoi(test.app, owner, 'creatPoiList', { projectid: city.id, list })
    let wasParsedAsJob = false
    let healthWhileParsing: number | undefined
    let isAnswered = false
    void answering.then(() => {
      isAnswered = true
    })
    while (!isAnswered) {
      if (jobs.load('cpu').running > 0 && healthWhileParsing === undefined) {
        wasParsedAsJob = true
        const health = await test.app.inject({ method: 'GET', url: '/web/health' })
        // still parsing when health was answered: the request thread was free meanwhile
        if (jobs.load('cpu').running > 0) healthWhileParsing = health.statusCode
      }
      await nextTurn()
    }
    expect(wasParsedAsJob).toBe(true)
    expect(healthWhileParsing).toBe(200)
    const answer = (await answering) as Awaited<ReturnType<typeof callPoi<{ details: unknown[] }>>>
    expectRefused(answer, 400, 'validation.invalidFields')
    expect(answer.envelope.datum.details[0]).toMatchObject({
      field: 'list.99999.x',
      messageId: 'validation.expectedNumber',
    })
  }, 120_000)

  it('of 2,000 short POIs (~180 KB, an array copy) is parsed as a job off the request thread', async () => {
    const list = Array.from({ length: 2_000 }, (_, index) => ({
      name: `C${index}`,
      category_id: camera.id,
      x: 121 + index * 1e-6,
      y: 31,
    }))
    const jobs = test.app.deps.jobs
    const answering = callPoi(test.app, owner, 'creatPoiList', { projectid: city.id, list })
    let isAnswered = false
    void answering.then(() => {
      isAnswered = true
    })
    let wasParsedAsJob = false
    while (!isAnswered) {
      if (jobs.load('cpu').running > 0) wasParsedAsJob = true
      await nextTurn()
    }
    expect(wasParsedAsJob).toBe(true)
    expect((await answering).envelope.datum).toMatchObject({ count: 2_000 })
  }, 120_000)

  // counts rows through SQLite's own connection inside the create's transaction; on PostgreSQL
  // the same slicing runs (createPois is one code path) but rows cannot be read mid-transaction
  it.skipIf(process.env.DATABASE_URL !== undefined)(
    'of 2,000 POIs lets health be answered while they are checked, before any is written',
    async () => {
      const project = await createProject(test.app, (owner as { token: string }).token, {
        name: 'Sliced city',
      })
      const sqlite = test.app.deps.database.sqlite!
      const countOf = sqlite.prepare('select count(*) as count from pois where project_id = ?')
      // Every clock read moves the clock 1 ms on, so the time the request thread may hold the
      // event loop is spent by reads, not by the machine's speed: the same turns on any machine.
      let fakeNowMs = performance.now()
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => (fakeNowMs += 1))
      try {
        const answering = callPoi(test.app, owner, 'creatPoiList', {
          projectid: project.id,
          list: bigList(2_000).map(({ devicecode: _code, ...item }) => item),
        })
        let isAnswered = false
        void answering.then(() => {
          isAnswered = true
        })
        // how many of the call's POIs were written (in its open transaction) at each health answer
        const writtenAtHealth: number[] = []
        while (!isAnswered) {
          // a health request is a task of the event loop, as one from a socket would be
          await nextTurn()
          const health = await test.app.inject({ method: 'GET', url: '/web/health' })
          expect(health.statusCode).toBe(200)
          if (sqlite.inTransaction) {
            writtenAtHealth.push((countOf.get(project.id) as { count: number }).count)
          }
        }
        expect((await answering).envelope.datum).toMatchObject({ count: 2_000 })
        // inside the transaction, before the first row: health was answered between the checks
        expect(writtenAtHealth).toContain(0)
      } finally {
        clock.mockRestore()
      }
    },
    120_000,
  )

  it('creates its POIs in order, as a small one does', async () => {
    const list = bigList(2_000)
    expect(JSON.stringify(list).length).toBeGreaterThan(poiListThreadMinBytes)
    const created = await okPoi<CreatedPoisDatum>(test.app, owner, 'creatPoiList', {
      projectid: city.id,
      list,
    })
    expect(created.count).toBe(2_000)
    expect(created.list.map((poi) => poi.devicecode)).toEqual(list.map((item) => item.devicecode))
    const ids = created.list.map((poi) => poi.id)
    const updated = await okPoi<{ count: number }>(test.app, owner, 'updataPoiList', {
      list: ids.map((id) => ({ id, name: 'Renamed', poi_style: '{"color":"#ffcc00"}'.repeat(8) })),
    })
    expect(updated.count).toBe(2_000)
    const before = await countPois(test.app, city.id)
    // ids alone are small: padded with spaces to take the thread's path
    const removed = await callPoi<{ count: number }>(
      test.app,
      owner,
      'deletePoiList',
      JSON.parse(JSON.stringify({ ids }, null, 40)),
    )
    expect(removed.envelope.datum.count).toBe(2_000)
    expect(await countPois(test.app, city.id)).toBe(before - 2_000)
  }, 120_000)

  it('gets the answers a small body gets: malformed, too deep, a forbidden key', async () => {
    const padding = ' '.repeat(poiListThreadMinBytes)
    const raw = (payload: string) =>
      test.app.inject({
        method: 'POST',
        url: '/web/poi/creatPoiList',
        headers: {
          'content-type': 'application/json',
          token: (owner as { token: string }).token,
        },
        payload,
      })
    for (const [body, status, messageId] of [
      [`{"projectid":"${city.id}","list":[{"name":"a"}`, 400, 'request.invalidJson'],
      [
        `{"projectid":"${city.id}","list":${'['.repeat(100)}${']'.repeat(100)}}`,
        400,
        'input.tooDeep',
      ],
      [`{"projectid":"${city.id}","__proto__":{"x":1},"list":[]}`, 400, 'request.invalidJson'],
      ['', 400, 'validation.invalidFields'],
    ] as const) {
      const small = await raw(body)
      const large = await raw(body === '' ? padding : `${body}${padding}`)
      expect(small.statusCode, body.slice(0, 40)).toBe(status)
      expect(small.json().messageId).toBe(messageId)
      if (body === '') {
        // spaces alone are not an empty body: malformed JSON
        expect(large.json().messageId).toBe('request.invalidJson')
        continue
      }
      expect(large.statusCode).toBe(status)
      expect(large.json()).toEqual(small.json())
    }
  })
})
