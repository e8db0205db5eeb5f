import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { zipSync } from 'fflate'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelInfoDatum } from '../../contract/building'
import type { BasemapFile, BasemapFindDatum, ObliquePhotograph } from '../../contract/city'
import type { GmlPath } from '../../contract/gml'
import type { Project, ProjectTokenDatum } from '../../contract/project'
import { sbmFixtureFiles } from '../../server/routes/web/building-test-kit'
import {
  createProject,
  postMultipart,
  signInNewUser,
} from '../../server/routes/web/project-test-kit'
import { callApi, createTestApp, signIn, type TestApp } from '../../server/testing/test-app'
import { createFileAddressBook, signedAddressOf } from './file-addresses'

/**
 * A page left open all day (a kiosk showing a share link) against the real server on a manual
 * clock: its file addresses expire (1–2 h for a project-token holder), and the engine's fetches
 * renew them through the page's find calls and go on loading; a revoked token stays refused.
 */

const indoorGml = new URL('../../../shared/data/indoorgml/', import.meta.url)
const fjkName = 'FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml'

function tilesetZip(): Uint8Array {
  const tile = new Uint8Array(64)
  tile.set(new TextEncoder().encode('b3dm'))
  const tileset = {
    asset: { version: '1.0' },
    geometricError: 100,
    root: {
      boundingVolume: { box: [0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10] },
      geometricError: 0,
      refine: 'ADD',
      content: { uri: 'a.b3dm' },
    },
  }
  return zipSync({
    'tileset.json': new TextEncoder().encode(JSON.stringify(tileset)),
    'a.b3dm': tile,
  })
}

function pmtilesFile(): Buffer {
  const header = Buffer.alloc(127)
  header.write('PMTiles', 0)
  header[7] = 3
  return Buffer.concat([header, Buffer.alloc(2000, 7)])
}

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
    const fixtures = await sbmFixtureFiles()
    const uploads = [
      postMultipart<ObliquePhotograph>(app, '/web/upload/uploadTiltModel', owner, [
        { name: 'project_id', value: city.id },
        { name: 'file', value: Buffer.from(tilesetZip()), fileName: 'tileset.zip' },
      ]),
      postMultipart(app, '/web/upload/uploadZip', owner, [
        { name: 'project_id', value: building.id },
        { name: 'file', value: fixtures.twoStoreys, fileName: 'two-storeys.sbm' },
      ]),
      postMultipart<GmlPath>(app, '/web/upload/uploadGml', owner, [
        { name: 'project_id', value: building.id },
        {
          name: 'file',
          value: await readFile(new URL(fjkName, indoorGml)),
          fileName: 'network.gml',
          contentType: 'application/gml+xml',
        },
      ]),
    ]
    for (const answer of await Promise.all(uploads)) {
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
    }
    const basemap = await postMultipart<BasemapFile>(app, '/web/upload/uploadBasemap', owner, [
      { name: 'project_id', value: city.id },
      { name: 'file', value: pmtilesFile(), fileName: 'kiosk.pmtiles' },
    ])
    expect(basemap.envelope.code, basemap.envelope.message).toBe('0')
    const saved = await callApi(app, {
      url: '/web/basemap/save',
      token: owner,
      json: { project_id: city.id, kind: 'pmtiles', pmtiles_id: basemap.envelope.datum.id },
    })
    expect(saved.envelope.code).toBe('0')
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
