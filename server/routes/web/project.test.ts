import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UploadJpgDatum } from '../../../contract/files'
import {
  type Project,
  type ProjectInfo,
  type ProjectPage,
  type ProjectShareDatum,
  type ProjectTokenDatum,
  projectLimits,
} from '../../../contract/project'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import {
  createProject,
  postMultipart,
  projectBody,
  sampleFiles,
  signInNewUser,
  startSlowUpload,
  storedFiles,
  uploadImage,
} from './project-test-kit'

import { abandonedUploadGraceMs } from '../../modules/projects/uploads.service'

describe('projects API', () => {
  let testApp: TestApp
  let editor: string
  let otherEditor: string
  let admin: string
  let files: Awaited<ReturnType<typeof sampleFiles>>

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    admin = await signIn(testApp.app, testAdmin)
    otherEditor = await signInNewUser(testApp.app, 'other-editor')
    files = await sampleFiles()
  })
  afterAll(async () => {
    await testApp.close()
  })

  const call = <Datum>(url: string, token: string | undefined, json: unknown) =>
    callApi<Datum>(testApp.app, { url: `/web/project/${url}`, json, ...(token ? { token } : {}) })
  const list = (token: string, body: Record<string, unknown> = {}) =>
    call<ProjectPage>('findProjectAll', token, body)

  it('creates a city and a building project with the spec defaults, listed by kind', async () => {
    const cover = await uploadImage(testApp.app, editor, files.png)
    const created = await call<Project>(
      'addProject',
      editor,
      projectBody(cover.uuid, { area_id: '420102', name: 'Wuhan riverside' }),
    )
    expect(created.statusCode).toBe(200)
    expect(created.envelope.datum).toMatchObject({
      kind: 'city',
      name: 'Wuhan riverside',
      area_id: '420102',
      area_name: '湖北省 / 武汉市 / 江岸区',
      gis_width: 600,
      gis_height: 800,
      tile_radius: 0.5,
      title_level: 15,
      project_center: { lng: 121.6, lat: 31.2 },
      prewiewpath: `/web/files/${cover.uuid}.png`,
      prewiewpath_uuid: cover.uuid,
      is_case: false,
      is_paid: false,
      owner_name: 'demo',
    })
    // a form-encoded create with JSON text for the picked point works the same
    const building = await callApi<Project>(testApp.app, {
      url: '/web/project/createProject',
      token: editor,
      form: {
        kind: 'building',
        name: 'Office tower',
        detailedaddress: 'Seoul',
        description: 'Floors 1-3',
        prewiewpath_uuid: cover.uuid,
        project_center: JSON.stringify({ lng: 126.97, lat: 37.56 }),
      },
    })
    expect(building.envelope.datum).toMatchObject({
      kind: 'building',
      project_center: { lng: 126.97 },
    })

    const cities = await list(editor, { kind: 'city' })
    const buildings = await list(editor, { kind: 'building' })
    expect(cities.envelope.datum.list.map((project) => project.name)).toContain('Wuhan riverside')
    expect(buildings.envelope.datum.list.map((project) => project.name)).toEqual(['Office tower'])
    const counts = await call<{ city: number; building: number }>('findProjectCounts', editor, {})
    expect(counts.envelope.datum).toEqual({
      city: cities.envelope.datum.total,
      building: buildings.envelope.datum.total,
    })
  })

  it('refuses a project without name, address, cover, description or picked location', async () => {
    const answer = await call('addProject', editor, { kind: 'city', name: '  ' })
    expect(answer.statusCode).toBe(400)
    expect(answer.envelope.code).toBe('1000')
    const fields = (answer.envelope.datum as { details: { field: string }[] }).details.map(
      (detail) => detail.field,
    )
    expect(fields).toEqual(
      expect.arrayContaining([
        'name',
        'detailedaddress',
        'description',
        'prewiewpath_uuid',
        'project_center',
      ]),
    )
  })

  it('refuses oversized fields, unknown regions and covers that are not the caller’s', async () => {
    const cover = await uploadImage(testApp.app, editor, files.png)
    const before = (await list(editor)).envelope.datum.total
    const tooLong = await call(
      'addProject',
      editor,
      projectBody(cover.uuid, { name: 'x'.repeat(51) }),
    )
    expect(tooLong.statusCode).toBe(400)
    const badRegion = await call(
      'addProject',
      editor,
      projectBody(cover.uuid, { area_id: '999999' }),
    )
    expect(badRegion.envelope).toMatchObject({ code: '1000', message: 'area_id: No such region' })
    const othersCover = await call('addProject', otherEditor, projectBody(cover.uuid))
    expect(othersCover.envelope.message).toBe('prewiewpath_uuid: No such uploaded image')
    const badPoint = await call(
      'addProject',
      editor,
      projectBody(cover.uuid, { project_center: { lng: 200, lat: 0 } }),
    )
    expect(badPoint.statusCode).toBe(400)
    expect((await list(editor)).envelope.datum.total).toBe(before)
  })

  it('keeps owners to their own projects: foreign ids are forbidden, unknown ids not found', async () => {
    const mine = await createProject(testApp.app, editor, { name: 'Mine only' })
    for (const url of ['findProject', 'findProjectOne', 'findprojectinfoall', 'deleteProject']) {
      const answer = await call(url, otherEditor, { id: mine.id })
      expect(answer.statusCode, url).toBe(403)
      expect(answer.envelope.code).toBe('1003')
    }
    const update = await call('updateProject', otherEditor, { id: mine.id, name: 'Taken over' })
    expect(update.statusCode).toBe(403)
    const copy = await call('copyProject', otherEditor, { id: mine.id })
    expect(copy.statusCode).toBe(403)
    const share = await call('projectShareUrl', otherEditor, { id: mine.id })
    expect(share.statusCode).toBe(403)
    const unknown = await call('findProject', editor, { id: 'no-such-project' })
    expect(unknown).toMatchObject({ statusCode: 404, envelope: { code: '1004' } })
    // nothing changed, and the other editor's lists never show it
    expect((await call<Project>('findProject', editor, { id: mine.id })).envelope.datum.name).toBe(
      'Mine only',
    )
    expect(
      (await list(otherEditor)).envelope.datum.list.map((project) => project.id),
    ).not.toContain(mine.id)
    // admins see and may change everyone's
    const asAdmin = await call<Project>('updateProject', admin, {
      id: mine.id,
      description: 'Checked',
    })
    expect(asAdmin.envelope.datum.description).toBe('Checked')
    const adminList = await list(admin, { pageSize: 100 })
    expect(adminList.envelope.datum.list.map((project) => project.id)).toContain(mine.id)
  })

  it('edits a project and releases the replaced cover once nothing uses it', async () => {
    const project = await createProject(testApp.app, editor, { name: 'Before' })
    const oldCoverPath = project.prewiewpath!
    expect((await testApp.app.inject({ url: oldCoverPath })).statusCode).toBe(200)
    const newCover = await uploadImage(testApp.app, editor, files.jpeg, 'photo.jpg')
    const answer = await call<Project>('updateProject', editor, {
      id: project.id,
      name: 'After',
      prewiewpath_uuid: newCover.uuid,
      area_id: '4419',
    })
    expect(answer.envelope.datum).toMatchObject({
      name: 'After',
      prewiewpath: `/web/files/${newCover.uuid}.jpg`,
      area_name: '广东省 / 东莞市',
      detailedaddress: project.detailedaddress,
    })
    expect((await testApp.app.inject({ url: oldCoverPath })).statusCode).toBe(404)
  })

  it('copies without duplicating bytes and deletes files only when nothing references them', async () => {
    const cover = await uploadImage(testApp.app, editor, files.png)
    const original = await createProject(testApp.app, editor, { name: 'Original' }, cover)
    const storeBefore = await storedFiles(testApp.config.filesDir)
    const copy = await call<Project>('copyProject', editor, { id: original.id, name: 'Copy' })
    expect(copy.envelope.datum).toMatchObject({
      name: 'Copy',
      kind: original.kind,
      detailedaddress: original.detailedaddress,
      prewiewpath_uuid: cover.uuid,
    })
    expect(copy.envelope.datum.id).not.toBe(original.id)
    expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)

    expect((await call('deleteProject', editor, { id: original.id })).envelope.code).toBe('0')
    expect((await call('findProject', editor, { id: original.id })).statusCode).toBe(404)
    // the copy still shows the shared cover
    expect((await testApp.app.inject({ url: copy.envelope.datum.prewiewpath! })).statusCode).toBe(
      200,
    )
    expect(
      (await call('deleteProject', editor, { id: copy.envelope.datum.id })).envelope.code,
    ).toBe('0')
    expect((await testApp.app.inject({ url: copy.envelope.datum.prewiewpath! })).statusCode).toBe(
      404,
    )
  })

  it('names a copy "<name> (copy)" in the caller\'s language, never the original\'s name', async () => {
    const original = await createProject(testApp.app, editor, { name: 'Harbour' })
    const copyAs = (cookie: string | undefined) =>
      callApi<Project>(testApp.app, {
        url: '/web/project/copyProject',
        token: editor,
        json: { id: original.id },
        ...(cookie ? { headers: { cookie } } : {}),
      })
    expect((await copyAs('language=en')).envelope.datum.name).toBe('Harbour (copy)')
    expect((await copyAs('language=zh')).envelope.datum.name).toBe('Harbour (副本)')
    expect((await copyAs('theme=dark; language=ko')).envelope.datum.name).toBe('Harbour (사본)')
    // the console's default language when the cookie is missing or unknown
    expect((await copyAs(undefined)).envelope.datum.name).toBe('Harbour (사본)')
    expect((await copyAs('language=fr')).envelope.datum.name).toBe('Harbour (사본)')
    // a name the caller sends (the console sends the one it showed) is kept as given
    const named = await call<Project>('copyProject', editor, { id: original.id, name: 'Harbour B' })
    expect(named.envelope.datum.name).toBe('Harbour B')
    // a name at the limit is shortened so that the mark still fits, not refused
    const longName = '가'.repeat(projectLimits.nameMaxLength)
    const long = await createProject(testApp.app, editor, { name: longName })
    const longCopy = await callApi<Project>(testApp.app, {
      url: '/web/project/copyProject',
      token: editor,
      json: { id: long.id },
      headers: { cookie: 'language=ko' },
    })
    expect(longCopy.envelope.code).toBe('0')
    expect(longCopy.envelope.datum.name).toMatch(/^가+ \(사본\)$/)
    expect(Array.from(longCopy.envelope.datum.name)).toHaveLength(projectLimits.nameMaxLength)
    // a name over the limit is refused with the catalogue's validation error, nothing written
    const before = (await list(editor, { pageSize: 100 })).envelope.datum.total
    const tooLong = await call('copyProject', editor, { id: original.id, name: 'x'.repeat(51) })
    expect(tooLong.statusCode).toBe(400)
    expect((await list(editor, { pageSize: 100 })).envelope.datum.total).toBe(before)
  })

  it('deleting a project while its image is uploading leaves no orphaned file', async () => {
    const project = await createProject(testApp.app, editor, { name: 'Short-lived' })
    const storeBefore = await storedFiles(testApp.config.filesDir)
    // bytes the store has never seen, so the in-flight upload would create a new file
    const freshImage = Buffer.concat([files.jpeg, Buffer.from(`trailer ${project.id}`)])
    const upload = startSlowUpload(testApp.app, '/web/upload/uploadJpg', editor, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: freshImage, fileName: 'new-cover.jpg', contentType: 'image/jpeg' },
    ])
    const deletion = await call('deleteProject', editor, { id: project.id })
    expect(deletion.envelope.code).toBe('0')
    upload.finish()
    const answer = await upload.answer
    expect(answer.statusCode).toBe(404)
    // the new image is gone; the project's cover stays only because other uploads share it
    expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)
    expect((await testApp.app.inject({ url: project.prewiewpath! })).statusCode).toBe(404)
  })

  it('pages, sorts and searches on the server', async () => {
    const searcher = await signInNewUser(testApp.app, 'pager')
    const cover = await uploadImage(testApp.app, searcher, files.png)
    for (let index = 0; index < 25; index++) {
      testApp.clock.advanceMs(1_000)
      await createProject(
        testApp.app,
        searcher,
        {
          name: `Site ${String(index).padStart(2, '0')}`,
          detailedaddress: index % 5 === 0 ? 'Near the Harbour' : 'Inland',
        },
        cover,
      )
    }
    const first = await list(searcher, { pageNo: 1, pageSize: 10 })
    expect(first.envelope.datum).toMatchObject({ total: 25, pageNo: 1, pageSize: 10 })
    expect(first.envelope.datum.list.map((project) => project.name).slice(0, 2)).toEqual([
      'Site 24',
      'Site 23',
    ])
    const last = await list(searcher, { pageNo: 3, pageSize: 10 })
    expect(last.envelope.datum.list).toHaveLength(5)
    const byName = await list(searcher, { sort: 'name', order: 'asc', pageSize: 3 })
    expect(byName.envelope.datum.list.map((project) => project.name)).toEqual([
      'Site 00',
      'Site 01',
      'Site 02',
    ])
    const search = await call<ProjectPage>('searchProject', searcher, { keyword: 'HARBOUR' })
    expect(search.envelope.datum.total).toBe(5)
    const literal = await call<ProjectPage>('searchProject', searcher, { keyword: '%' })
    expect(literal.envelope.datum.total).toBe(0)
    const tooBig = await list(searcher, { pageSize: 1000 })
    expect(tooBig.statusCode).toBe(400)
  })

  it('lets an admin list one user’s projects but not an editor someone else’s', async () => {
    const pagerAnswer = await call<ProjectPage>('findProjectAllByUser', admin, {})
    expect(pagerAnswer.envelope.code).toBe('0')
    const demoId = (await call<Project[]>('findProjectCases', editor, {})).envelope.datum[0]!
      .owner_id
    const refused = await call('findProjectAllByUser', editor, { user_id: demoId })
    expect(refused.statusCode).toBe(403)
  })

  it('issues revocable project tokens that open one project without a user token', async () => {
    const project = await createProject(testApp.app, editor, { name: 'Shared' })
    const issued = await call<ProjectTokenDatum>('getPTokenByprojectId', editor, { id: project.id })
    const projectToken = issued.envelope.datum.project_token
    expect(projectToken).toMatch(/^[\w-]{43}$/)
    const byToken = await call<Project>('findProject', undefined, {
      id: project.id,
      project_token: projectToken,
    })
    expect(byToken.envelope.datum.name).toBe('Shared')
    const byHeader = await callApi<ProjectInfo>(testApp.app, {
      url: '/web/project/findprojectinfoall',
      json: { id: project.id },
      headers: { projecttoken: projectToken },
    })
    expect(byHeader.envelope.datum.id).toBe(project.id)
    const other = await createProject(testApp.app, editor, { name: 'Not shared' })
    const wrongProject = await call('findProject', undefined, {
      id: other.id,
      project_token: projectToken,
    })
    expect(wrongProject.statusCode).toBe(403)
    const share = await call<ProjectShareDatum>('projectShareUrl', editor, { id: project.id })
    expect(share.envelope.datum.url).toMatch(
      new RegExp(`^/#/bim4/outPreview\\?project_id=${project.id}&project_token=[\\w-]{43}$`),
    )
    const revoked = await call<{ revoked: number }>('revokeProjectTokens', editor, {
      id: project.id,
    })
    expect(revoked.envelope.datum.revoked).toBe(2)
    const afterRevoke = await call('findProject', undefined, {
      id: project.id,
      project_token: projectToken,
    })
    expect(afterRevoke.statusCode).toBe(403)
    const anonymous = await call('findProject', undefined, { id: project.id })
    expect(anonymous.envelope.code).toBe('2011')
  })

  it('seeds one city and one building case that guests can read but not change', async () => {
    const guest = await signInNewUser(testApp.app, 'visitor', 'guest')
    const cases = await call<Project[]>('findProjectCases', guest, {})
    expect(cases.envelope.datum.map((project) => [project.kind, project.is_case])).toEqual([
      ['city', true],
      ['building', true],
    ])
    const [city, building] = cases.envelope.datum
    expect(city!.shell_json_path).toBe('/cases/city/scene.json')
    // the building case is stored like an upload: its manifest and shell model open through
    // the model library like any building project's
    expect(building!.shell_json_path).toMatch(/\.json$/)
    const manifest = await testApp.app.inject({
      url: building!.shell_json_path!,
      headers: { token: guest },
    })
    expect(JSON.parse(manifest.body)).toMatchObject({
      kind: 'building',
      shell: { model: 'house.sbm' },
    })
    const modelInfo = await testApp.app.inject({
      method: 'POST',
      url: '/web/model/findModelInfo',
      headers: { token: guest },
      payload: { project_id: building!.id },
    })
    const { datum } = modelInfo.json()
    expect(datum.models).toMatchObject([
      { name: 'house', role: 'shell', has_stored_bvh: true, triangle_count: expect.any(Number) },
    ])
    expect(datum.structure.floors).toMatchObject([{ name: '1F', modelIds: [datum.models[0].id] }])
    const model = await testApp.app.inject({ url: datum.models[0].url })
    expect(model.statusCode).toBe(200)
    expect(model.rawPayload.subarray(0, 4).toString()).toBe('glTF')
    // the city case opens with its tileset (issue 12: `obliquephotograph/find` answered [])
    const tilesets = await testApp.app.inject({
      method: 'POST',
      url: '/web/obliquephotograph/find',
      headers: { token: guest },
      payload: { project_id: city!.id },
    })
    const [dragon] = tilesets.json().datum
    expect(dragon).toMatchObject({ name: 'Dragon', is_georeferenced: true, asset_version: '1.0' })
    const root = await testApp.app.inject({ url: dragon.root_url, headers: { token: guest } })
    expect(root.statusCode).toBe(200)
    expect(root.json().root.children).toHaveLength(1)
    const cover = await testApp.app.inject({ url: city!.prewiewpath! })
    expect(cover.headers['content-type']).toBe('image/png')
    // every answer says what the caller may do, by the rule the server enforces below
    const readOnly = {
      canRead: true,
      canEdit: false,
      canDelete: false,
      canShare: false,
      canCopy: false,
    }
    expect(cases.envelope.datum.map((project) => project.permissions)).toEqual([readOnly, readOnly])
    const opened = (await call<Project>('findProject', guest, { id: building!.id })).envelope.datum
    expect(opened.id).toBe(building!.id)
    expect(opened.permissions).toEqual(readOnly)
    expect((await list(guest)).envelope.datum.list.map((project) => project.permissions)).toEqual([
      readOnly,
      readOnly,
    ])
    const asEditor = (await call<Project>('findProject', editor, { id: city!.id })).envelope.datum
    expect(asEditor.permissions).toEqual({ ...readOnly, canCopy: true })
    expect((await list(guest)).envelope.datum.total).toBe(2)
    expect((await call('deleteProject', guest, { id: city!.id })).statusCode).toBe(403)
    expect((await call('addProject', guest, projectBody(city!.prewiewpath_uuid!))).statusCode).toBe(
      403,
    )
    // an editor may start from a case: the copy is theirs
    const copy = await call<Project>('copyProject', editor, { id: city!.id })
    expect(copy.envelope.datum.permissions).toMatchObject({ canEdit: true, canDelete: true })
    expect(copy.envelope.datum).toMatchObject({ is_case: false, owner_name: 'demo' })
    expect((await call('deleteProject', editor, { id: city!.id })).statusCode).toBe(403)
  })

  it('names the seeded cases by catalogue id while they keep their seeded texts, and a renamed case as typed', async () => {
    const guest = await signInNewUser(testApp.app, 'case-reader', 'guest')
    const [city, building] = (await call<Project[]>('findProjectCases', guest, {})).envelope.datum
    // the client shows these ids in the reader's language (ko/zh/en), not the stored English
    expect(city).toMatchObject({
      name_key: 'case.dragon.name',
      description_key: 'case.dragon.description',
      detailedaddress_key: 'case.dragon.address',
    })
    expect(building).toMatchObject({ name_key: 'case.house.name' })
    // a copy is the editor's own project: its name is what it is called now, while its
    // description and address are still the case's, read in the user's language
    const copy = (await call<Project>('copyProject', editor, { id: building!.id })).envelope.datum
    expect(copy).not.toHaveProperty('name_key')
    expect(copy).toMatchObject({
      description_key: 'case.house.description',
      detailedaddress_key: 'case.house.address',
    })
    // an admin renames the case but keeps its address: only the address still has an id
    await call('updateProject', admin, { id: city!.id, name: 'Our dragon' })
    const renamed = (await call<Project>('findProject', guest, { id: city!.id })).envelope.datum
    expect(renamed.name).toBe('Our dragon')
    expect(renamed).not.toHaveProperty('name_key')
    expect(renamed.detailedaddress_key).toBe('case.dragon.address')
  })
})

describe('image upload', () => {
  let testApp: TestApp
  let editor: string
  let files: Awaited<ReturnType<typeof sampleFiles>>

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    files = await sampleFiles()
  })
  afterAll(async () => {
    await testApp.close()
  })

  const upload = (parts: Parameters<typeof postMultipart>[3]) =>
    postMultipart<UploadJpgDatum>(testApp.app, '/web/upload/uploadJpg', editor, parts)

  it('accepts JPEG and PNG by content and serves them with a thumbnail address', async () => {
    const answer = await upload([
      { name: 'file', value: files.jpeg, fileName: 'photo.jpeg', contentType: 'image/jpeg' },
      { name: 'thumbnail', value: files.jpeg, fileName: 'thumb.jpg', contentType: 'image/jpeg' },
    ])
    expect(answer.statusCode).toBe(200)
    const datum = answer.envelope.datum
    expect(datum).toMatchObject({
      rootPath: '/web/files/',
      jpgName: `${datum.uuid}.jpg`,
      contentType: 'image/jpeg',
      sizeBytes: files.jpeg.length,
      thumbnailPath: `/web/files/thumbs/${datum.uuid}.jpg`,
    })
    const served = await testApp.app.inject({ url: `${datum.rootPath}${datum.jpgName}` })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/jpeg')
    expect(served.rawPayload.equals(files.jpeg)).toBe(true)
    // a PNG named .jpg is still a PNG
    const png = await upload([{ name: 'file', value: files.png, fileName: 'cover.jpg' }])
    expect(png.envelope.datum.jpgName).toMatch(/\.png$/)
    const thumb = await testApp.app.inject({ url: png.envelope.datum.thumbnailPath })
    expect(thumb.headers['content-type']).toBe('image/png')
  })

  it('refuses a renamed non-image, an oversized image and a missing file, keeping nothing', async () => {
    const before = await storedFiles(testApp.config.filesDir)
    const renamed = await upload([
      { name: 'file', value: files.glb, fileName: 'holiday.jpg', contentType: 'image/jpeg' },
    ])
    expect(renamed).toMatchObject({ statusCode: 415, envelope: { code: '1015' } })
    const oversized = Buffer.concat([files.png, Buffer.alloc(2 * 1024 * 1024)])
    const tooLarge = await upload([
      { name: 'file', value: oversized, fileName: 'huge.png', contentType: 'image/png' },
    ])
    expect(tooLarge).toMatchObject({ statusCode: 413, envelope: { code: '1013' } })
    const noFile = await upload([{ name: 'project_id', value: 'x' }])
    expect(noFile.statusCode).toBe(400)
    const badThumbnail = await upload([
      { name: 'file', value: files.png, fileName: 'a.png' },
      { name: 'thumbnail', value: files.png, fileName: 'a-thumb.png' },
    ])
    expect(badThumbnail.statusCode).toBe(415)
    expect(await storedFiles(testApp.config.filesDir)).toEqual(before)
  })

  it('refuses uploads for an unknown project and serves nothing for made-up names', async () => {
    const answer = await upload([
      { name: 'project_id', value: 'no-such-project' },
      { name: 'file', value: files.png, fileName: 'a.png' },
    ])
    expect(answer.statusCode).toBe(404)
    for (const url of [
      '/web/files/00000000-0000-0000-0000-000000000000.png',
      '/web/files/..%2F..%2Fetc%2Fpasswd',
      '/web/files/thumbs/not-a-uuid.jpg',
    ]) {
      expect((await testApp.app.inject({ url })).statusCode, url).toBe(404)
    }
  })

  it('forgets abandoned project-cover uploads after the grace period, keeping other images', async () => {
    const cover = await upload([
      { name: 'purpose', value: 'project-cover' },
      {
        name: 'file',
        value: Buffer.concat([files.png, Buffer.from('abandoned')]),
        fileName: 'c.png',
      },
    ])
    const avatar = await upload([
      { name: 'file', value: Buffer.concat([files.png, Buffer.from('avatar')]), fileName: 'a.png' },
    ])
    const used = await createProject(testApp.app, editor, { name: 'Keeps its cover' })
    const { uploads } = testApp.app.deps.services
    expect(await uploads.collectAbandoned()).toBe(0)
    testApp.clock.advanceMs(abandonedUploadGraceMs + 1_000)
    expect(await uploads.collectAbandoned()).toBe(1)
    const status = async (path: string) => (await testApp.app.inject({ url: path })).statusCode
    expect(await status(`/web/files/${cover.envelope.datum.jpgName}`)).toBe(404)
    expect(await status(`/web/files/${avatar.envelope.datum.jpgName}`)).toBe(200)
    expect(await status(used.prewiewpath!)).toBe(200)
  })

  it('needs a signed-in editor', async () => {
    const answer = await postMultipart(testApp.app, '/web/upload/uploadJpg', 'not-a-token', [
      { name: 'file', value: files.png, fileName: 'a.png' },
    ])
    expect(answer.envelope.code).toBe('2011')
  })
})
