import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelInfoDatum } from '../../../contract/building'
import type { BasemapFindDatum, ObliquePhotograph } from '../../../contract/city'
import type { GmlPath } from '../../../contract/gml'
import type { Project, ProjectTokenDatum } from '../../../contract/project'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'
import { uploadEveryFileKind } from './shared-files-test-kit'

/**
 * Issue 13, class 7: revoking a project's tokens ends a share-link viewer's access to every file
 * address it was handed (tiles, PMTiles basemap, model and structure files, GML), within a
 * minute, while the owner's own addresses keep working. Time runs on the manual clock.
 */

describe('revoking project tokens', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let city: Project
  let building: Project

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    owner = await signInNewUser(app, 'revoking-owner')
    city = await createProject(app, owner, { kind: 'city', name: 'Shared city' })
    building = await createProject(app, owner, { kind: 'building', name: 'Shared building' })
    await uploadEveryFileKind(app, owner, {
      cityId: city.id,
      buildingId: building.id,
      basemapName: 'shared.pmtiles',
    })
    const manifest = {
      version: 1,
      kind: 'building',
      name: 'Shared building',
      shell: null,
      floors: [{ id: 'F1', name: 'Ground', elevation: 0, model: 'two-storeys.sbm' }],
    }
    const structure = await postMultipart(
      app,
      '/web/upload/configModelFileStructureReturnUrl',
      owner,
      [
        { name: 'project_id', value: building.id },
        { name: 'file', value: Buffer.from(JSON.stringify(manifest)), fileName: 's.json' },
      ],
    )
    expect(structure.envelope.code, structure.envelope.message).toBe('0')
  })
  afterAll(async () => {
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

  /** Every file address a reader gets from the projects' find calls, by kind. */
  const addressesOf = async (reader: { token: string } | { projectTokens: [string, string] }) => {
    const as = (projectIndex: 0 | 1) =>
      'token' in reader
        ? { token: reader.token, project: {} }
        : { project: { project_token: reader.projectTokens[projectIndex] } }
    const find = async <Datum>(url: string, projectId: string, projectIndex: 0 | 1) => {
      const { token, project } = as(projectIndex)
      const answer = await callApi<Datum>(app, {
        url,
        ...(token === undefined ? {} : { token }),
        json: { project_id: projectId, ...project },
      })
      expect(answer.envelope.code, `${url}: ${answer.envelope.message}`).toBe('0')
      return answer.envelope.datum
    }
    const tilesets = await find<ObliquePhotograph[]>('/web/obliquephotograph/find', city.id, 0)
    const basemap = await find<BasemapFindDatum>('/web/basemap/find', city.id, 0)
    const models = await find<ModelInfoDatum>('/web/model/findModelInfo', building.id, 1)
    const gml = await find<GmlPath>('/web/project/findGmlPath', building.id, 1)
    const rootUrl = tilesets[0]!.root_url!
    return {
      tilesetJson: rootUrl,
      tile: new URL('a.b3dm', `http://host${rootUrl}`).pathname,
      basemap: basemap.pmtiles_url!,
      basemapFile: basemap.files[0]!.url,
      model: models.models[0]!.url,
      structure: models.shell_json_path!,
      gml: gml.url,
    }
  }

  const statusOf = async (url: string) => (await app.inject({ method: 'GET', url })).statusCode

  const statusesOf = async (addresses: Record<string, string>) => {
    const statuses: Record<string, number> = {}
    for (const [kind, url] of Object.entries(addresses)) statuses[kind] = await statusOf(url)
    return statuses
  }

  it('ends a share-link viewer’s file addresses within a minute; the owner’s keep working', async () => {
    const viewer = await addressesOf({
      projectTokens: [await tokenFor(city.id), await tokenFor(building.id)],
    })
    const ownAddresses = await addressesOf({ token: owner })
    const allOk = Object.fromEntries(Object.keys(viewer).map((kind) => [kind, 200]))
    expect(await statusesOf(viewer)).toEqual(allOk)
    expect(await statusesOf(ownAddresses)).toEqual(allOk)

    for (const project of [city, building]) {
      const revoked = await callApi(app, {
        url: '/web/project/revokeProjectTokens',
        token: owner,
        json: { id: project.id },
      })
      expect(revoked.envelope.datum).toEqual({ revoked: 1 })
    }
    testApp.clock.advanceMs(60_000)

    const allForbidden = Object.fromEntries(Object.keys(viewer).map((kind) => [kind, 403]))
    expect(await statusesOf(viewer)).toEqual(allForbidden)
    expect(await statusesOf(ownAddresses)).toEqual(allOk)
  })

  it('gives a token holder addresses that expire within two hours; asking again renews them', async () => {
    const projectTokens: [string, string] = [await tokenFor(city.id), await tokenFor(building.id)]
    const first = await addressesOf({ projectTokens })
    const allOk = Object.fromEntries(Object.keys(first).map((kind) => [kind, 200]))
    testApp.clock.advanceMs(2 * 3_600_000)
    const allForbidden = Object.fromEntries(Object.keys(first).map((kind) => [kind, 403]))
    expect(await statusesOf(first)).toEqual(allForbidden)
    // the find calls answer fresh addresses for as long as the token lives
    expect(await statusesOf(await addressesOf({ projectTokens }))).toEqual(allOk)
  })
})
