import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelInfoDatum } from '../../contract/building'
import type { BasemapFindDatum, ObliquePhotograph } from '../../contract/city'
import type { GmlPath } from '../../contract/gml'
import type { Project, ProjectTokenDatum } from '../../contract/project'
import { createProject, signInNewUser } from '../../server/routes/web/project-test-kit'
import { callApi, createTestApp, signIn, type TestApp } from '../../server/testing/test-app'
import {
  createFileAddressBook,
  grantExpiryMs,
  renewAheadMs,
  signedAddressOf,
} from './file-addresses'
import { uploadEveryFileKind } from '../../server/routes/web/shared-files-test-kit'

/**
 * A page left open all day (a kiosk showing a share link) against the real server on a manual
 * clock: its file addresses expire (1–2 h for a project-token holder), and the engine's fetches
 * renew them through the page's find calls and go on loading; a revoked token stays refused.
 */

describe('signed file addresses', () => {
  it('swaps the grant of every kind of address, relative or absolute, and leaves others alone', async () => {
    const seen: string[] = []
    const book = createFileAddressBook({
      fetch: async (url) => {
        seen.push(url)
        return new Response('', { status: url.includes('old') ? 403 : 200 })
      },
    })
    book.setRenewer(async () => ({
      tilesets: [{ root_url: '/web/tiles/t1/v1/new1/tileset.json' }],
      basemap: { pmtiles_url: '/web/basemaps/b1/new2/map.pmtiles' },
      models: [{ url: '/web/model/files/m1/abc.sbm?grant=new3' }],
      other: '/web/health',
    }))
    const tile = 'http://host/web/tiles/t1/v1/old1/sub/a.b3dm'
    expect((await book.fetch(tile)).status).toBe(200)
    expect(seen).toEqual([tile, 'http://host/web/tiles/t1/v1/new1/sub/a.b3dm'])
    expect(book.current('/web/basemaps/b1/old2/map.pmtiles')).toBe(
      '/web/basemaps/b1/new2/map.pmtiles',
    )
    expect(book.current('http://host/web/model/files/m1/abc.sbm?grant=old3')).toBe(
      'http://host/web/model/files/m1/abc.sbm?grant=new3',
    )
    expect(book.current('/web/health')).toBe('/web/health')
    expect(signedAddressOf('/web/health')).toBeUndefined()
  })
})

describe('renewing a grant shortly before it expires', () => {
  /** A grant of the server's form, expiring at `expiryMs`. */
  const grantAt = (expiryMs: number, tag: string) =>
    `${(expiryMs / 1000).toString(36)}.-.${tag.padEnd(43, 'x')}`
  const expiryMs = Date.UTC(2026, 0, 1, 12)
  const oldGrant = grantAt(expiryMs, 'old')
  const newGrant = grantAt(expiryMs + 3_600_000, 'new')
  const model = `http://host/web/model/files/m1/abc.sbm?grant=${oldGrant}`

  /** A book on a clock the test moves, over a server that accepts every grant. */
  const bookAt = (startMs: number, renewed: () => unknown) => {
    let clockMs = startMs
    const sent: string[] = []
    let renewals = 0
    const book = createFileAddressBook({
      nowMs: () => clockMs,
      fetch: async (url) => {
        sent.push(url)
        return new Response('', { status: 200 })
      },
    })
    book.setRenewer(async () => {
      renewals++
      return renewed()
    })
    return {
      book,
      sent,
      renewals: () => renewals,
      advanceMs: (durationMs: number) => {
        clockMs += durationMs
      },
    }
  }

  it('reads the expiry a grant carries', () => {
    expect(grantExpiryMs(oldGrant)).toBe(expiryMs)
    expect(grantExpiryMs('not-a-grant')).toBeUndefined()
  })

  it('sends the fresh grant, not the one about to expire, and renews once for many fetches', async () => {
    const page = bookAt(expiryMs - 60 * 60_000, () => ({
      url: `/web/model/files/m1/abc.sbm?grant=${newGrant}`,
    }))
    await page.book.fetch(model)
    expect(page.renewals()).toBe(0)
    // 9 minutes before expiry: renewed before the request goes out
    page.advanceMs(51 * 60_000)
    await Promise.all([page.book.fetch(model), page.book.fetch(model), page.book.fetch(model)])
    expect(page.renewals()).toBe(1)
    expect(page.sent.slice(1)).toEqual(Array(3).fill(model.replace(oldGrant, newGrant)))
    // the fresh grant has an hour more: nothing to renew for a while
    page.advanceMs(30 * 60_000)
    await page.book.fetch(model)
    expect(page.renewals()).toBe(1)
    expect(await page.book.fresh(model)).toBe(model.replace(oldGrant, newGrant))
  })

  it('renews ahead once per grant when the renewal brings nothing later (a clock ahead)', async () => {
    const page = bookAt(expiryMs - renewAheadMs + 1, () => ({ url: model }))
    for (let i = 0; i < 5; i++) await page.book.fetch(model)
    expect(page.renewals()).toBe(1)
    expect(page.sent).toEqual(Array(5).fill(model))
  })

  it('still fetches with the grant it has when the renewal fails (offline)', async () => {
    const page = bookAt(expiryMs - 60_000, () => {
      throw new Error('offline')
    })
    expect((await page.book.fetch(model)).status).toBe(200)
    expect(page.sent).toEqual([model])
  })

  it('does not renew without a renewer or for other addresses', async () => {
    const page = bookAt(expiryMs - 60_000, () => ({}))
    await page.book.fetch('http://host/web/health')
    expect(page.renewals()).toBe(0)
    page.book.setRenewer(null)
    expect(await page.book.fresh(model)).toBe(model)
  })
})

describe('renewing signed file addresses', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let origin: string
  let owner: string
  let city: Project
  let building: Project

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    await app.listen({ host: '127.0.0.1', port: 0 })
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    owner = await signInNewUser(app, 'kiosk-owner')
    city = await createProject(app, owner, { kind: 'city', name: 'Kiosk city' })
    building = await createProject(app, owner, { kind: 'building', name: 'Kiosk building' })
    await uploadEveryFileKind(app, owner, {
      cityId: city.id,
      buildingId: building.id,
      basemapName: 'kiosk.pmtiles',
    })
  })
  afterAll(async () => {
    // fetch keeps its connections alive; close would wait for them
    app.server.closeAllConnections()
    await testApp.close()
  })

  const tokenFor = async (projectId: string) => {
    const answer = await callApi<ProjectTokenDatum>(app, {
      url: '/web/project/getPTokenByprojectId',
      token: owner,
      json: { id: projectId },
    })
    return answer.envelope.datum.project_token
  }

  /** The find calls a share-link page makes, as the page's renewer makes them again. */
  const findAnswers = async (cityToken: string, buildingToken: string) => {
    const find = async <Datum>(url: string, projectId: string, projectToken: string) => {
      const answer = await callApi<Datum>(app, {
        url,
        json: { project_id: projectId, project_token: projectToken },
      })
      if (answer.envelope.code !== '0') throw new Error(answer.envelope.message)
      return answer.envelope.datum
    }
    return {
      tilesets: await find<ObliquePhotograph[]>('/web/obliquephotograph/find', city.id, cityToken),
      basemap: await find<BasemapFindDatum>('/web/basemap/find', city.id, cityToken),
      models: await find<ModelInfoDatum>('/web/model/findModelInfo', building.id, buildingToken),
      gml: await find<GmlPath>('/web/project/findGmlPath', building.id, buildingToken),
    }
  }

  /** Absolute addresses, as the engine gets them, of every kind of file. */
  const addressesIn = (answers: Awaited<ReturnType<typeof findAnswers>>) => {
    const tilesetJson = `${origin}${answers.tilesets[0]!.root_url!}`
    return {
      tilesetJson,
      // a tile: loaders.gl resolves it below the tileset's address, grant included
      tile: new URL('a.b3dm', tilesetJson).href,
      basemap: `${origin}${answers.basemap.pmtiles_url!}`,
      model: `${origin}${answers.models.models[0]!.url}`,
      gml: `${origin}${answers.gml.url}`,
    }
  }

  const statusesOf = async (
    addresses: Record<string, string>,
    fetchFile: (url: string) => Promise<Response>,
  ) => {
    const statuses: Record<string, number> = {}
    for (const [kind, url] of Object.entries(addresses)) {
      const response = await fetchFile(url)
      await response.arrayBuffer()
      statuses[kind] = response.status
    }
    return statuses
  }

  it('renews expired addresses once through the find calls and loads every kind again', async () => {
    const [cityToken, buildingToken] = [await tokenFor(city.id), await tokenFor(building.id)]
    const opened = addressesIn(await findAnswers(cityToken, buildingToken))
    for (const url of Object.values(opened)) expect(signedAddressOf(url), url).toBeDefined()
    let renewals = 0
    const book = createFileAddressBook()
    book.setRenewer(async () => {
      renewals++
      return findAnswers(cityToken, buildingToken)
    })
    const allOk = Object.fromEntries(Object.keys(opened).map((kind) => [kind, 200]))
    expect(await statusesOf(opened, (url) => book.fetch(url))).toEqual(allOk)
    expect(renewals).toBe(0)

    // hours later: the addresses the page opened with have expired
    testApp.clock.advanceMs(2 * 3_600_000 + 60_000)
    const allForbidden = Object.fromEntries(Object.keys(opened).map((kind) => [kind, 403]))
    expect(await statusesOf(opened, (url) => fetch(url))).toEqual(allForbidden)
    expect(await statusesOf(opened, (url) => book.fetch(url))).toEqual(allOk)
    // one round of find calls renewed every file; the rest went straight to the fresh grant
    expect(renewals).toBe(1)
    expect(book.current(opened.tile)).not.toBe(opened.tile)
    expect(signedAddressOf(book.current(opened.tile))?.key).toBe(signedAddressOf(opened.tile)?.key)
  })

  it('renews shortly before expiry, so a page running for days never has a file refused', async () => {
    owner = await signIn(app, { name: 'kiosk-owner', password: 'kiosk-owner-password-123' })
    const [cityToken, buildingToken] = [await tokenFor(city.id), await tokenFor(building.id)]
    const answered: number[] = []
    let renewals = 0
    const book = createFileAddressBook({
      nowMs: () => testApp.clock.nowMs(),
      fetch: async (url, init) => {
        const response = await fetch(url, init)
        answered.push(response.status)
        return response
      },
    })
    book.setRenewer(async () => {
      renewals++
      return findAnswers(cityToken, buildingToken)
    })
    // token grants end on the hour: fetches at :55, :15 and :35 meet each one 5 minutes early
    const hourMs = 3_600_000
    testApp.clock.advanceMs(hourMs - (testApp.clock.nowMs() % hourMs) + 55 * 60_000)
    const opened = addressesIn(await findAnswers(cityToken, buildingToken))
    const allOk = Object.fromEntries(Object.keys(opened).map((kind) => [kind, 200]))
    // two days of a kiosk, every kind of file fetched every 20 minutes
    for (let minutes = 0; minutes < 2 * 24 * 60; minutes += 20) {
      expect(await statusesOf(opened, (url) => book.fetch(url))).toEqual(allOk)
      testApp.clock.advanceMs(20 * 60_000)
    }
    // never a refusal on the way: each grant was replaced before it expired, about hourly
    expect(answered.every((status) => status === 200)).toBe(true)
    expect(renewals).toBeGreaterThanOrEqual(2 * 24 - 1)
    expect(renewals).toBeLessThanOrEqual(2 * 24)
  })

  it('leaves the addresses of a revoked share link refused', async () => {
    // the owner's session idled out while the clock ran on
    owner = await signIn(app, { name: 'kiosk-owner', password: 'kiosk-owner-password-123' })
    const [cityToken, buildingToken] = [await tokenFor(city.id), await tokenFor(building.id)]
    const opened = addressesIn(await findAnswers(cityToken, buildingToken))
    const book = createFileAddressBook()
    book.setRenewer(() => findAnswers(cityToken, buildingToken))
    for (const project of [city, building]) {
      await callApi(app, {
        url: '/web/project/revokeProjectTokens',
        token: owner,
        json: { id: project.id },
      })
    }
    testApp.clock.advanceMs(60_000)
    const allForbidden = Object.fromEntries(Object.keys(opened).map((kind) => [kind, 403]))
    expect(await statusesOf(opened, (url) => book.fetch(url))).toEqual(allForbidden)
  })
})
