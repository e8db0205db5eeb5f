import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import { load } from '@loaders.gl/core'
import type { FastifyInstance } from 'fastify'
import { type Zippable, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  BasemapFile,
  BasemapFindDatum,
  GisModel,
  ObliquePhotograph,
  ObliquePhotographListItem,
} from '../../../contract/city'
import type { Project } from '../../../contract/project'
import { uploadIdOfLocation } from '../../../contract/resumable-upload'
import { folderSweep } from '../../modules/files/folder-sweeper'
import { callApi, createTestApp, type TestApp, testEditor, signIn } from '../../testing/test-app'

import { createProject, postMultipart, signInNewUser } from './project-test-kit'

const sharedData = new URL('../../../../shared/data/', import.meta.url)
const readShared = (path: string) => readFile(new URL(path, sharedData))

/** A tile whose first bytes are the format's magic, as the server checks them. */
function fakeTile(magic: string, sizeBytes = 64): Uint8Array {
  const bytes = new Uint8Array(sizeBytes)
  bytes.set(new TextEncoder().encode(magic))
  for (let index = 4; index < sizeBytes; index++) bytes[index] = (index * 31) & 0xff
  return bytes
}

const text = (value: string) => new TextEncoder().encode(value)

function tilesetJson(contentUris: string[], extra: Record<string, unknown> = {}): Uint8Array {
  return text(
    JSON.stringify({
      asset: { version: '1.0' },
      geometricError: 100,
      root: {
        boundingVolume: { box: [0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10] },
        geometricError: 10,
        refine: 'ADD',
        children: contentUris.map((uri) => ({
          boundingVolume: { box: [0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5] },
          geometricError: 0,
          content: { uri },
        })),
      },
      ...extra,
    }),
  )
}

/** A small valid tileset zip: tileset.json at the root and two tiles. */
function validZip(tileBytes = fakeTile('b3dm')): Uint8Array {
  return zipSync({
    'tileset.json': tilesetJson(['a.b3dm', 'sub/b.glb']),
    'a.b3dm': tileBytes,
    'sub/b.glb': fakeTile('glTF'),
  })
}

/** Offsets of every central directory record of a zip made by fflate (no comment). */
function centralRecords(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const end = zip.byteLength - 22
  const count = view.getUint16(end + 10, true)
  let cursor = view.getUint32(end + 16, true)
  const records: number[] = []
  for (let index = 0; index < count; index++) {
    records.push(cursor)
    cursor +=
      46 +
      view.getUint16(cursor + 28, true) +
      view.getUint16(cursor + 30, true) +
      view.getUint16(cursor + 32, true)
  }
  return records
}

function centralName(zip: Uint8Array, record: number): string {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  return Buffer.from(
    zip.subarray(record + 46, record + 46 + view.getUint16(record + 28, true)),
  ).toString()
}

/** Patches the central record (and the local header) of one entry. */
function patchEntry(
  zip: Uint8Array,
  name: string,
  patch: (view: DataView, central: number, local: number) => void,
): Uint8Array {
  const copy = zip.slice()
  const view = new DataView(copy.buffer)
  const record = centralRecords(copy).find((offset) => centralName(copy, offset) === name)
  if (record === undefined) throw new Error(`no entry ${name}`)
  patch(view, record, view.getUint32(record + 42, true))
  return copy
}

describe('city area: oblique photography, tiles, GIS models, basemaps', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let project: Project

  const upload = (
    parts: { zip: Uint8Array | Buffer; fileName?: string; id?: string; projectId?: string },
    as = token,
  ) =>
    postMultipart<ObliquePhotograph>(app, '/web/upload/uploadTiltModel', as, [
      { name: 'project_id', value: parts.projectId ?? project.id },
      ...(parts.id === undefined ? [] : [{ name: 'id', value: parts.id }]),
      { name: 'file', value: Buffer.from(parts.zip), fileName: parts.fileName ?? 'tileset.zip' },
    ])

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers })

  /** The address of a file next to the root tileset JSON. */
  const besideRoot = (rootUrl: string, relative: string) =>
    new URL(relative, `http://host${rootUrl}`).pathname

  beforeAll(async () => {
    test = await createTestApp({ env: { MAP_PROXY_HOSTS: 'tiles.example.com' } })
    app = test.app
    token = await signIn(app, testEditor)
    project = await createProject(app, token, { kind: 'city' })
  })
  afterAll(async () => {
    await test.close()
  })

  it.each([
    ['zip/derived/tileset-discrete-lod-root.zip', 'tileset.json', 2],
    ['zip/derived/tileset-request-volume-nested.zip', 'TilesetWithRequestVolume/tileset.json', 6],
    ['zip/derived/tileset-1.1-implicit-quadtree.zip', 'tileset.json', 32],
    ['3dtiles/tools/packages/tileset.3tz', 'tileset.json', 5],
  ])('accepts %s and serves its tiles by relative URI', async (path, rootPath, tileCount) => {
    const fileName = path.split('/').pop()!
    const answer = await upload({ zip: await readShared(path), fileName })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    const tileset = answer.envelope.datum
    expect(tileset.root_url).toMatch(new RegExp(`/${rootPath.replace('.', '\\.')}$`))
    expect(tileset.stats?.tile_count).toBe(tileCount)
    expect(tileset.name).toBe(fileName.replace(/\.(zip|3tz)$/, ''))

    const root = await get(tileset.root_url!)
    expect(root.statusCode).toBe(200)
    expect(root.headers['content-type']).toMatch(/^application\/json/)
    const json = root.json() as {
      root: { content?: { uri: string }; children?: Array<{ content?: { uri: string } }> }
    }
    const firstUri =
      json.root.content?.uri ?? json.root.children?.find((child) => child.content)?.content?.uri
    if (firstUri !== undefined && !firstUri.includes('{')) {
      const tile = await get(besideRoot(tileset.root_url!, firstUri))
      expect(tile.statusCode).toBe(200)
      expect(['application/octet-stream', 'model/gltf-binary', 'application/json']).toContain(
        String(tile.headers['content-type']).split(';')[0],
      )
    }
  })

  it('takes a finished resumable upload by upload_id and releases it', async () => {
    const zip = Buffer.from(validZip())
    const metadata = ['filename tileset.zip', 'purpose tileset']
      .map((pair) => {
        const [key, value] = pair.split(' ') as [string, string]
        return `${key} ${Buffer.from(value).toString('base64')}`
      })
      .join(',')
    const created = await app.inject({
      method: 'POST',
      url: '/web/upload/resumable',
      headers: {
        'tus-resumable': '1.0.0',
        token,
        'upload-length': String(zip.length),
        'upload-metadata': metadata,
      },
    })
    expect(created.statusCode).toBe(201)
    const uploadId = uploadIdOfLocation(String(created.headers.location))!
    const patched = await app.inject({
      method: 'PATCH',
      url: `/web/upload/resumable/${uploadId}`,
      headers: {
        'tus-resumable': '1.0.0',
        token,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: zip,
    })
    expect(patched.statusCode).toBe(204)
    const answer = await callApi<ObliquePhotograph>(app, {
      url: '/web/upload/uploadTiltModel',
      token,
      json: { project_id: project.id, upload_id: uploadId },
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    expect(answer.envelope.datum.name).toBe('tileset')
    expect((await get(answer.envelope.datum.root_url!)).statusCode).toBe(200)
    // the web client sends the id in a multipart form, like a file upload: same outcome
    const again = await postMultipart(app, '/web/upload/uploadTiltModel', token, [
      { name: 'project_id', value: project.id },
      { name: 'upload_id', value: uploadId },
    ])
    expect(again.statusCode).toBe(404)
  })

  it('serves a tileset that loaders.gl loads over HTTP, external tileset and tiles by relative URI', async () => {
    const answer = await upload({
      zip: await readShared('zip/derived/tileset-request-volume-nested.zip'),
      fileName: 'request-volume.zip',
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const tileset = (await load(`${origin}${answer.envelope.datum.root_url}`, Tiles3DLoader)) as {
      root: { children: Array<{ contentUrl?: string }> }
    }
    const contentUrls = tileset.root.children.flatMap((child) =>
      child.contentUrl ? [child.contentUrl] : [],
    )
    expect(contentUrls.map((url) => url.split('/').slice(-2).join('/')).sort()).toEqual([
      'TilesetWithRequestVolume/building.b3dm',
      'TilesetWithRequestVolume/points.pnts',
      'city/tileset.json',
    ])
    const types: string[] = []
    for (const url of contentUrls) {
      const content = (await load(url, Tiles3DLoader, { '3d-tiles': { loadGLTF: false } })) as {
        type?: string
      }
      types.push(String(content.type))
    }
    expect(types.sort()).toEqual(['TILES3D', 'b3dm', 'pnts'])
  })

  it('reports a referenced tile missing from the archive as a warning, not a refusal', async () => {
    const zip = zipSync({
      'tileset.json': tilesetJson(['here.b3dm', 'gone.b3dm']),
      'here.b3dm': fakeTile('b3dm'),
    })
    const answer = await upload({ zip })
    expect(answer.envelope.code).toBe('0')
    expect(answer.envelope.datum.warnings.join(' ')).toContain('gone.b3dm')
  })

  it('refuses ambiguous.zip naming its candidate roots', async () => {
    const answer = await upload({
      zip: await readShared('zip/3dtiles-convert/ambiguous.zip'),
      fileName: 'ambiguous.zip',
    })
    expect(answer.statusCode).toBe(400)
    expect(answer.envelope.message).toContain('tilesetA.json')
    expect(answer.envelope.message).toContain('tilesetB.json')
  })

  it('refuses OSGB oblique photography with the advice to convert it to 3D Tiles', async () => {
    const zip = zipSync({
      'Data/Tile_+000_+000/Tile_+000_+000.osgb': fakeTile('osg!'),
      'metadata.xml': text('<x/>'),
    })
    const answer = await upload({ zip })
    expect(answer.statusCode).toBe(415)
    expect(answer.envelope.message).toMatch(/OSGB.*Convert it to 3D Tiles first/s)
  })

  it('refuses an archive without any tileset and a file that is no zip', async () => {
    const none = await upload({ zip: zipSync({ 'readme.txt': text('hello') }) })
    expect(none.statusCode).toBe(400)
    expect(none.envelope.message).toContain('No tileset.json found')
    const notZip = await upload({
      zip: await readShared('gltf/Duck/Duck.glb'),
      fileName: 'duck.zip',
    })
    expect(notZip.statusCode).toBe(415)
  })

  describe('hostile archives are refused and the served version stays', () => {
    let existing: ObliquePhotograph

    beforeAll(async () => {
      const answer = await upload({ zip: validZip(), fileName: 'keep.zip' })
      expect(answer.envelope.code).toBe('0')
      existing = answer.envelope.datum
    })

    const hostile: Array<[string, () => Uint8Array, RegExp]> = [
      [
        'a name that climbs out of the folder',
        () => zipSync({ 'tileset.json': tilesetJson([]), '../../evil.b3dm': fakeTile('b3dm') }),
        /climbs out/,
      ],
      [
        'an absolute name',
        () => zipSync({ 'tileset.json': tilesetJson([]), '/etc/evil.b3dm': fakeTile('b3dm') }),
        /absolute/,
      ],
      [
        'a symbolic link',
        () =>
          zipSync({
            'tileset.json': tilesetJson([]),
            link: [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
          } as Zippable),
        /symbolic links/,
      ],
      [
        'a zip bomb (declared expansion far beyond real data)',
        () =>
          patchEntry(validZip(), 'a.b3dm', (view, central) => {
            view.setUint32(central + 24, 0xfffffff0, true)
          }),
        /zip bomb|expands to/,
      ],
      [
        'a lying size header (more bytes than declared)',
        () =>
          patchEntry(validZip(fakeTile('b3dm', 4096)), 'a.b3dm', (view, central, local) => {
            view.setUint32(central + 24, 100, true)
            view.setUint32(local + 22, 100, true)
          }),
        /expands past its declared size|declares|damaged/,
      ],
      ['a truncated archive', () => validZip().subarray(0, 200), /ends early|cut off/],
      [
        'a password-protected entry',
        () =>
          patchEntry(validZip(), 'a.b3dm', (view, central) => {
            view.setUint16(central + 8, view.getUint16(central + 8, true) | 1, true)
          }),
        /password/,
      ],
      ['a duplicate name', () => duplicateNameZip(), /appears twice/],
      [
        'a tileset.json that is not JSON',
        () =>
          zipSync({ 'tileset.json': text('<html>not json</html>'), 'a.b3dm': fakeTile('b3dm') }),
        /not valid JSON/,
      ],
      [
        'a tileset.json without asset.version',
        () => zipSync({ 'tileset.json': text('{"root":{}}') }),
        /asset\.version/,
      ],
      [
        'a content URI that escapes the archive',
        () => zipSync({ 'tileset.json': tilesetJson(['../outside.b3dm']) }),
        /outside\.b3dm.*climbs out/,
      ],
      [
        'a content URI on another server',
        () => zipSync({ 'tileset.json': tilesetJson(['https://evil.example/tile.b3dm']) }),
        /address outside the archive/,
      ],
      [
        'a tile whose bytes are not its format',
        () =>
          zipSync({ 'tileset.json': tilesetJson(['a.b3dm']), 'a.b3dm': text('MZ this is an exe') }),
        /a\.b3dm \(named \.b3dm, contains unknown data\)/,
      ],
    ]

    it.each(hostile)('%s', async (_label, makeZip, message) => {
      const answer = await upload({ zip: makeZip(), id: existing.id })
      expect(answer.statusCode).toBeGreaterThanOrEqual(400)
      expect(answer.statusCode).toBeLessThan(500)
      expect(answer.envelope.message).toMatch(message)

      const [after] = (
        await callApi<ObliquePhotograph[]>(app, {
          url: '/web/obliquephotograph/find',
          token,
          json: { project_id: project.id, id: existing.id },
        })
      ).envelope.datum
      expect(after?.root_url).toBe(existing.root_url)
      const tile = await get(besideRoot(existing.root_url!, 'a.b3dm'))
      expect(tile.statusCode).toBe(200)
      expect(new Uint8Array(tile.rawPayload)).toEqual(fakeTile('b3dm'))
    })

    it('leaves no extraction folders behind', async () => {
      const names = await readdir(join(test.config.dataDir, 'tilesets'))
      expect(names.filter((name) => name.startsWith('.staging-'))).toEqual([])
    })

    it('replaces the content on update, keeping id and name, and stops serving the old version', async () => {
      const answer = await upload({
        zip: zipSync({ 'tileset.json': tilesetJson(['c.pnts']), 'c.pnts': fakeTile('pnts') }),
        id: existing.id,
        fileName: 'other-name.zip',
      })
      expect(answer.envelope.code).toBe('0')
      expect(answer.envelope.datum.id).toBe(existing.id)
      expect(answer.envelope.datum.name).toBe(existing.name)
      expect(answer.envelope.datum.root_url).not.toBe(existing.root_url)
      expect((await get(besideRoot(answer.envelope.datum.root_url!, 'c.pnts'))).statusCode).toBe(
        200,
      )
      expect((await get(besideRoot(existing.root_url!, 'a.b3dm'))).statusCode).toBe(404)
    })
  })

  it('serves gzip-on-disk tiles as stored with Content-Encoding: gzip', async () => {
    const folder = new URL('3dtiles/tools/simpleTileset-gzip/', sharedData)
    const files: Zippable = {}
    for (const name of [
      'tileset.json',
      'tileA.glb',
      'tileB.b3dm',
      'tileC.i3dm',
      'sub/tileB.b3dm',
    ]) {
      files[name] = await readFile(new URL(name, folder))
    }
    const answer = await upload({ zip: zipSync(files), fileName: 'gzip.zip' })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    expect(answer.envelope.datum.stats?.gzip_file_count).toBe(5)
    const root = await get(answer.envelope.datum.root_url!)
    expect(root.headers['content-encoding']).toBe('gzip')
    expect(root.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(gunzipSync(root.rawPayload).toString()).asset.version).toBe('1.1')
    const glb = await get(besideRoot(answer.envelope.datum.root_url!, 'tileA.glb'))
    expect(glb.headers['content-type']).toBe('model/gltf-binary')
    expect(glb.headers['content-encoding']).toBe('gzip')
  })

  it('answers Range requests with 206 and 416, and If-None-Match with 304', async () => {
    const answer = await upload({ zip: validZip(fakeTile('b3dm', 1000)) })
    const url = besideRoot(answer.envelope.datum.root_url!, 'a.b3dm')
    const whole = await get(url)
    expect(whole.headers['accept-ranges']).toBe('bytes')
    expect(whole.headers['cache-control']).toContain('immutable')
    const part = await get(url, { range: 'bytes=10-19' })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe('bytes 10-19/1000')
    expect(new Uint8Array(part.rawPayload)).toEqual(fakeTile('b3dm', 1000).subarray(10, 20))
    const suffix = await get(url, { range: 'bytes=-5' })
    expect(suffix.headers['content-range']).toBe('bytes 995-999/1000')
    const beyond = await get(url, { range: 'bytes=5000-' })
    expect(beyond.statusCode).toBe(416)
    expect(beyond.headers['content-range']).toBe('bytes */1000')
    const cached = await get(url, { 'if-none-match': String(whole.headers.etag) })
    expect(cached.statusCode).toBe(304)
  })

  it('refuses tampered grants and paths that leave the tileset', async () => {
    const answer = await upload({ zip: validZip() })
    const rootUrl = answer.envelope.datum.root_url!
    const parts = rootUrl.split('/')
    const grant = parts[5]!
    const tampered = rootUrl.replace(
      grant,
      `${grant.slice(0, -1)}${grant.endsWith('A') ? 'B' : 'A'}`,
    )
    expect((await get(tampered)).statusCode).toBe(403)
    const otherVersion = rootUrl.replace(parts[4]!, '00000000-0000-4000-8000-000000000000')
    expect((await get(otherVersion)).statusCode).toBe(403)
    const escaping = `${parts.slice(0, 6).join('/')}/..%2F..%2F..%2Fcity-url-signing.key`
    expect([403, 404]).toContain((await get(escaping)).statusCode)
    expect((await get(besideRoot(rootUrl, 'missing.b3dm'))).statusCode).toBe(404)
  })

  it('lists tilesets as id and name, and the full records by project token', async () => {
    const list = await callApi<ObliquePhotographListItem[]>(app, {
      url: '/web/findObliquePhotograph',
      token,
      form: { project_id: project.id },
    })
    expect(list.envelope.code).toBe('0')
    expect(list.envelope.datum.length).toBeGreaterThan(3)
    expect(Object.keys(list.envelope.datum[0]!).sort()).toEqual(['id', 'name'])

    const issued = await callApi<{ project_token: string }>(app, {
      url: '/web/project/getPTokenByprojectId',
      token,
      form: { id: project.id },
    })
    const projectToken = issued.envelope.datum.project_token
    const byToken = await callApi<ObliquePhotograph[]>(app, {
      url: '/web/obliquephotograph/find',
      headers: { ProjectToken: projectToken },
      json: {},
    })
    expect(byToken.envelope.code).toBe('0')
    expect(byToken.envelope.datum.map((item) => item.id).sort()).toEqual(
      list.envelope.datum.map((item) => item.id).sort(),
    )
    const served = byToken.envelope.datum.find((item) => item.root_url !== null)!
    expect((await get(served.root_url!)).statusCode).toBe(200)

    const nobody = await callApi(app, {
      url: '/web/obliquephotograph/find',
      json: { project_id: project.id },
    })
    expect(nobody.envelope.code).toBe('2011')
  })

  it("keeps other users out of a project's tilesets, GIS models and basemaps", async () => {
    const stranger = await signInNewUser(app, 'stranger-city')
    const [mine] = (
      await callApi<ObliquePhotograph[]>(app, {
        url: '/web/obliquephotograph/find',
        token,
        json: { project_id: project.id },
      })
    ).envelope.datum
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/web/obliquephotograph/find', { project_id: project.id }],
      ['/web/findObliquePhotograph', { project_id: project.id }],
      ['/web/obliquephotograph/update', { id: mine!.id, name: 'mine now' }],
      ['/web/obliquephotograph/del', { id: mine!.id }],
      ['/web/gismodel/select', { project_id: project.id }],
      ['/web/gismodel/add', { project_id: project.id, modelname: 'x' }],
      ['/web/basemap/find', { project_id: project.id }],
      ['/web/basemap/save', { project_id: project.id, kind: 'offline' }],
    ]
    for (const [url, json] of calls) {
      const answer = await callApi(app, { url, token: stranger, json })
      expect(answer.statusCode, url).toBe(403)
    }
    const theirUpload = await upload({ zip: validZip() }, stranger)
    expect(theirUpload.statusCode).toBe(403)
    const unknown = await callApi(app, {
      url: '/web/obliquephotograph/del',
      token,
      json: { id: '00000000-0000-4000-8000-000000000000' },
    })
    expect(unknown.statusCode).toBe(404)
  })

  it('adds, places, hides and deletes a tileset record', async () => {
    const added = await callApi<ObliquePhotograph>(app, {
      url: '/web/obliquephotograph/add',
      token,
      json: { project_id: project.id, name: 'Harbour mesh', placement: { lng: 121.5, lat: 31.2 } },
    })
    expect(added.envelope.datum).toMatchObject({
      name: 'Harbour mesh',
      root_url: null,
      is_visible: true,
      placement: { lng: 121.5, lat: 31.2, height_offset: 0, heading: 0 },
    })
    const id = added.envelope.datum.id
    const filled = await upload({ zip: validZip(), id })
    expect(filled.envelope.datum.root_url).not.toBeNull()
    expect(filled.envelope.datum.name).toBe('Harbour mesh')
    const updated = await callApi<ObliquePhotograph>(app, {
      url: '/web/obliquephotograph/update',
      token,
      form: {
        id,
        is_visible: 'false',
        'placement.lng': '10',
        'placement.lat': '20',
        'placement.heading': '90',
      },
    })
    expect(updated.envelope.code, updated.envelope.message).toBe('0')
    expect(updated.envelope.datum).toMatchObject({
      is_visible: false,
      placement: { lng: 10, lat: 20, heading: 90 },
    })
    const rootUrl = filled.envelope.datum.root_url!
    const deleted = await callApi(app, { url: '/web/obliquephotograph/del', token, json: { id } })
    expect(deleted.envelope.code).toBe('0')
    expect((await get(rootUrl)).statusCode).toBe(404)
  })

  it('saves single-building models of picked features and validates their tileset', async () => {
    const tileset = (await upload({ zip: validZip() })).envelope.datum
    const added = await callApi<GisModel>(app, {
      url: '/web/gismodel/add',
      token,
      json: {
        project_id: project.id,
        modelname: 'Tower A',
        tileset_id: tileset.id,
        feature_ids: [3, 4],
        properties: { floors: 30 },
      },
    })
    expect(added.envelope.datum).toMatchObject({
      modelname: 'Tower A',
      feature_ids: [3, 4],
      properties: { floors: 30 },
    })
    const form = await callApi<GisModel>(app, {
      url: '/web/gismodel/add',
      token,
      form: `project_id=${project.id}&modelname=Tower%20B&feature_ids=7&feature_ids=8&properties=%7B%22use%22%3A%22office%22%7D`,
    })
    expect(form.envelope.datum).toMatchObject({
      feature_ids: [7, 8],
      properties: { use: 'office' },
    })
    const wrongTileset = await callApi(app, {
      url: '/web/gismodel/add',
      token,
      json: {
        project_id: project.id,
        modelname: 'x',
        tileset_id: '00000000-0000-4000-8000-000000000000',
      },
    })
    expect(wrongTileset.statusCode).toBe(400)
    const renamed = await callApi<GisModel>(app, {
      url: '/web/gismodel/update',
      token,
      json: { id: added.envelope.datum.id, modelname: 'Tower A1' },
    })
    expect(renamed.envelope.datum.modelname).toBe('Tower A1')
    const listed = await callApi<GisModel[]>(app, {
      url: '/web/gismodel/select',
      token,
      json: { project_id: project.id },
    })
    expect(listed.envelope.datum.map((model) => model.modelname).sort()).toEqual([
      'Tower A1',
      'Tower B',
    ])
    await callApi(app, { url: '/web/gismodel/delete', token, json: { id: form.envelope.datum.id } })
    const after = await callApi<GisModel[]>(app, {
      url: '/web/gismodel/select',
      token,
      json: { project_id: project.id },
    })
    expect(after.envelope.datum.map((model) => model.modelname)).toEqual(['Tower A1'])
  })

  it('accepts a PMTiles v3 basemap, serves it with ranges and saves the project setting', async () => {
    const header = Buffer.alloc(127)
    header.write('PMTiles', 0)
    header[7] = 3
    const pmtiles = Buffer.concat([header, Buffer.alloc(2000, 7)])
    const uploaded = await postMultipart<BasemapFile>(app, '/web/upload/uploadBasemap', token, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: pmtiles, fileName: 'shanghai.pmtiles' },
    ])
    expect(uploaded.envelope.code, uploaded.envelope.message).toBe('0')
    expect(uploaded.envelope.datum).toMatchObject({ name: 'shanghai', size_bytes: pmtiles.length })
    const range = await get(uploaded.envelope.datum.url, { range: 'bytes=0-6' })
    expect(range.statusCode).toBe(206)
    expect(range.rawPayload.toString()).toBe('PMTiles')

    const notPmtiles = await postMultipart(app, '/web/upload/uploadBasemap', token, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: Buffer.from('PMTiles\u0002 old version'), fileName: 'old.pmtiles' },
    ])
    expect(notPmtiles.statusCode).toBe(415)

    const initial = await callApi<BasemapFindDatum>(app, {
      url: '/web/basemap/find',
      token,
      json: { project_id: project.id },
    })
    expect(initial.envelope.datum.setting.kind).toBe('offline')
    const online = await callApi(app, {
      url: '/web/basemap/save',
      token,
      json: { project_id: project.id, kind: 'online' },
    })
    expect(online.statusCode).toBe(400)
    const saved = await callApi<BasemapFindDatum>(app, {
      url: '/web/basemap/save',
      token,
      json: { project_id: project.id, kind: 'pmtiles', pmtiles_id: uploaded.envelope.datum.id },
    })
    expect(saved.envelope.datum.setting).toEqual({
      kind: 'pmtiles',
      style_url: null,
      pmtiles_id: uploaded.envelope.datum.id,
    })
    expect(saved.envelope.datum.pmtiles_url).toContain('/web/basemaps/')
    const inUse = await callApi(app, {
      url: '/web/basemap/del',
      token,
      json: { id: uploaded.envelope.datum.id },
    })
    expect(inUse.statusCode).toBe(409)
  })

  it('copies tilesets, GIS models and the basemap with the project, sharing files, and deletes them with it', async () => {
    const source = await createProject(app, token, { kind: 'city', name: 'Copy source' })
    const tileset = (await upload({ zip: validZip(), projectId: source.id })).envelope.datum
    await callApi(app, {
      url: '/web/gismodel/add',
      token,
      json: { project_id: source.id, modelname: 'Hall', tileset_id: tileset.id, feature_ids: [1] },
    })
    await callApi(app, {
      url: '/web/basemap/save',
      token,
      json: {
        project_id: source.id,
        kind: 'online',
        style_url: 'https://tiles.example.com/style.json',
      },
    })
    const copy = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token,
      form: { id: source.id },
    })
    const copyId = copy.envelope.datum.id
    const [copiedTileset] = (
      await callApi<ObliquePhotograph[]>(app, {
        url: '/web/obliquephotograph/find',
        token,
        json: { project_id: copyId },
      })
    ).envelope.datum
    expect(copiedTileset?.id).not.toBe(tileset.id)
    expect((await get(copiedTileset!.root_url!)).statusCode).toBe(200)
    const [copiedModel] = (
      await callApi<GisModel[]>(app, {
        url: '/web/gismodel/select',
        token,
        json: { project_id: copyId },
      })
    ).envelope.datum
    expect(copiedModel?.tileset_id).toBe(copiedTileset!.id)
    const basemap = await callApi<BasemapFindDatum>(app, {
      url: '/web/basemap/find',
      token,
      json: { project_id: copyId },
    })
    expect(basemap.envelope.datum.setting.style_url).toBe('https://tiles.example.com/style.json')

    // deleting the source leaves the copy's shared files served
    expect(
      (await callApi(app, { url: '/web/project/deleteProject', token, form: { id: source.id } }))
        .envelope.code,
    ).toBe('0')
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect((await get(copiedTileset!.root_url!)).statusCode).toBe(200)
    expect(
      (await callApi(app, { url: '/web/project/deleteProject', token, form: { id: copyId } }))
        .envelope.code,
    ).toBe('0')
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect((await get(copiedTileset!.root_url!)).statusCode).toBe(404)
  })
  it('sweeps version folders no tileset serves, keeping the served ones', async () => {
    const tilesetsDirectory = join(test.config.dataDir, 'tilesets')
    const orphan = join(tilesetsDirectory, '11111111-2222-4333-8444-555555555555')
    await mkdir(join(orphan, 'sub'), { recursive: true })
    await writeFile(join(orphan, 'sub', 'tile.b3dm'), fakeTile('b3dm'))
    const served = (await upload({ zip: validZip() })).envelope.datum
    const { tilesets } = app.deps.services
    let removed = 0
    for (const rule of tilesets.sweepRules()) removed += await folderSweep(rule).sweep('startup')
    expect(removed).toBeGreaterThanOrEqual(1)
    expect(await readdir(tilesetsDirectory)).not.toContain('11111111-2222-4333-8444-555555555555')
    expect((await get(served.root_url!)).statusCode).toBe(200)
  })
})

/** Two entries with the same name (fflate refuses to write that, so the name is patched). */
function duplicateNameZip(): Uint8Array {
  const zip = zipSync({
    'tileset.json': tilesetJson([]),
    'a.b3dm': fakeTile('b3dm'),
    'b.b3dm': fakeTile('b3dm'),
  })
  return patchEntry(zip, 'b.b3dm', (view, central, local) => {
    const bytes = new Uint8Array(view.buffer)
    bytes[central + 46] = 'a'.charCodeAt(0)
    bytes[local + 30] = 'a'.charCodeAt(0)
  })
}
