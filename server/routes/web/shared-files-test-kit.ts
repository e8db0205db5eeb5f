import { readFile } from 'node:fs/promises'
import { zipSync } from 'fflate'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { BasemapFile, ObliquePhotograph } from '../../../contract/city'
import type { GmlPath } from '../../../contract/gml'
import { callApi } from '../../testing/test-app'
import { sbmFixtureFiles } from './building-test-kit'
import { postMultipart } from './project-test-kit'

/**
 * Gives a city and a building project one file of every kind a share-link viewer is handed an
 * address for (tileset, PMTiles basemap, SBM model, GML network), for the revocation and the
 * address-renewal tests.
 */

const indoorGml = new URL('../../../../shared/data/indoorgml/', import.meta.url)
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

/** Uploads a tileset and a saved basemap to the city, a model and a GML file to the building. */
export async function uploadEveryFileKind(
  app: FastifyInstance,
  owner: string,
  projects: { cityId: string; buildingId: string; basemapName: string },
): Promise<void> {
  const fixtures = await sbmFixtureFiles()
  const uploads = [
    postMultipart<ObliquePhotograph>(app, '/web/upload/uploadTiltModel', owner, [
      { name: 'project_id', value: projects.cityId },
      { name: 'file', value: Buffer.from(tilesetZip()), fileName: 'tileset.zip' },
    ]),
    postMultipart(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: projects.buildingId },
      { name: 'file', value: fixtures.twoStoreys, fileName: 'two-storeys.sbm' },
    ]),
    postMultipart<GmlPath>(app, '/web/upload/uploadGml', owner, [
      { name: 'project_id', value: projects.buildingId },
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
    { name: 'project_id', value: projects.cityId },
    { name: 'file', value: pmtilesFile(), fileName: projects.basemapName },
  ])
  expect(basemap.envelope.code, basemap.envelope.message).toBe('0')
  const saved = await callApi(app, {
    url: '/web/basemap/save',
    token: owner,
    json: { project_id: projects.cityId, kind: 'pmtiles', pmtiles_id: basemap.envelope.datum.id },
  })
  expect(saved.envelope.code).toBe('0')
}
