import { randomBytes, randomUUID } from 'node:crypto'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CityModel } from '../../../contract/city-models'
import { formatServerMessage } from '../../../contract/messages'
import type { DownloadState, OfflinePackage } from '../../../contract/offline-package'
import type {
  AccountDatum,
  Recharge,
  ShoppingListDatum,
  UsageHistory,
} from '../../../contract/orders'
import type { Project } from '../../../contract/project'
import { type TemplatePage, templateRoutes } from '../../../contract/templates'
import { verifyLedger } from '../../modules/orders/ledger'
import { timestampOf } from '../../modules/time/clock'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'
import { sbmFixtureFiles, sharedFile } from './building-test-kit'
import { insertCutPackageBuild } from './orders-test-kit'
import { libraryCamera } from './pois-test-kit'
import { createProject, postMultipart, sampleFiles, signInNewUser } from './project-test-kit'

/**
 * The offline package (issue 20 item 6): who may build and download it, what the zip holds,
 * Range downloads, hostile `reqPaths`, and what a build cut short by a crash leaves (nothing
 * served, nothing charged).
 */
describe('offline package', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let stranger: string
  let admin: string
  let building: Project
  let othersBuilding: Project

  const call = <Datum>(url: string, token: string, json: unknown) =>
    callApi<Datum>(app, { url, token, json })
  const state = async (projectId: string, token = owner) => {
    const answer = await call<DownloadState>('/web/bimBiz/checkSbkDownloadState', token, {
      project_id: projectId,
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    return answer.envelope.datum
  }
  const build = (projectId: string, variant?: 'full' | 'trial', token = owner) =>
    call<OfflinePackage>('/web/bimBiz/buildSbkFile', token, {
      project_id: projectId,
      ...(variant === undefined ? {} : { variant }),
    })
  /** Builds and waits for the build to end; the project's state after it. */
  const buildToEnd = async (projectId: string, variant?: 'full' | 'trial') => {
    const started = await build(projectId, variant)
    expect(started.envelope.code, started.envelope.message).toBe('0')
    await app.deps.services.offlinePackages.settle()
    return state(projectId)
  }
  const download = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers })
  const order = (method: string, json: unknown, token = owner) =>
    call<Record<string, unknown>>(`/web/orderManage/${method}`, token, json)
  const balance = async () =>
    ((await order('getAccountAmount', {})).envelope.datum as unknown as AccountDatum).balance

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    const suffix = randomBytes(3).toString('hex')
    owner = await signInNewUser(app, `package-owner-${suffix}`)
    stranger = await signInNewUser(app, `package-stranger-${suffix}`)
    admin = await signIn(app, testAdmin)
    building = await createProject(app, owner, { kind: 'building', name: 'Packaged tower' })
    othersBuilding = await createProject(app, stranger, { kind: 'building', name: 'Not yours' })
    const fixtures = await sbmFixtureFiles()
    for (const [projectId, token] of [
      [building.id, owner],
      [othersBuilding.id, stranger],
    ] as const) {
      const upload = await postMultipart(app, '/web/upload/uploadZip', token, [
        { name: 'project_id', value: projectId },
        { name: 'file', value: fixtures.twoStoreys, fileName: 'two-storeys.sbm' },
      ])
      expect(upload.envelope.code, upload.envelope.message).toBe('0')
    }
    const gml = await postMultipart(app, '/web/upload/uploadGml', owner, [
      { name: 'project_id', value: building.id },
      {
        name: 'file',
        value: await sharedFile('indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml'),
        fileName: 'fjk.gml',
        contentType: 'application/gml+xml',
      },
    ])
    expect(gml.envelope.code, gml.envelope.message).toBe('0')
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('charts the usage per day: uploads on the day they were stored, every day present', async () => {
    const answer = await call<UsageHistory>('/web/orderManage/getUsageHistory', owner, {
      project_id: building.id,
      days: 7,
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    const { days } = answer.envelope.datum
    expect(days).toHaveLength(7)
    const today = timestampOf(testApp.clock.nowMs()).slice(0, 10)
    expect(days.at(-1)).toEqual({
      day: today,
      upload_bytes: (await sbmFixtureFiles()).twoStoreys.byteLength + 344_773,
      update_bytes: 0,
      configuration_operations: 0,
    })
    expect(days.slice(0, -1).every((day) => day.upload_bytes === 0)).toBe(true)
    const foreign = await call('/web/orderManage/getUsageHistory', stranger, {
      project_id: building.id,
    })
    expect(foreign.statusCode).toBe(403)
    const tooLong = await call('/web/orderManage/getUsageHistory', owner, {
      project_id: building.id,
      days: 5000,
    })
    expect(tooLong.statusCode).toBe(400)
  })

  it('lets an unpaid project build only the watermarked trial, holding the whole scene', async () => {
    // POIs of a library icon template and of a seeded 3D model template, and a capture
    // (after the usage test, which charts the uploads alone)
    const camera2d = await libraryCamera(app, owner)
    const modelTemplates = await callApi<TemplatePage>(app, {
      url: templateRoutes.selectTemplatePage.path,
      token: owner,
      json: { keyword: 'camera-3d' },
    })
    const camera3d = modelTemplates.envelope.datum.list.find(
      (t) => t.poicategory_code === 'camera-3d',
    )!
    expect(camera3d.type).toBe('3D')
    const floor = await app.deps.database.db
      .selectFrom('building_floors')
      .select('id')
      .where('project_id', '=', building.id)
      .executeTakeFirstOrThrow()
    for (const [name, template] of [
      ['Door camera', camera2d],
      ['Hall camera', camera3d],
    ] as const) {
      const poi = await call('/web/poi/creatPoi', owner, {
        projectid: building.id,
        name,
        category_id: template.id,
        floor_id: floor.id,
        x: 1,
        y: 2,
        z: 3,
      })
      expect(poi.envelope.code, poi.envelope.message).toBe('0')
    }
    const capture = await postMultipart(app, '/web/project/addCapture', owner, [
      { name: 'project_id', value: building.id },
      { name: 'name', value: 'Lobby' },
      { name: 'camera', value: JSON.stringify({ position: [1, 5, 10], target: [0, 0, 0] }) },
      {
        name: 'file',
        value: (await sampleFiles()).png,
        fileName: 'c.png',
        contentType: 'image/png',
      },
    ])
    expect(capture.envelope.code, capture.envelope.message).toBe('0')
    const before = await state(building.id)
    expect(before).toMatchObject({ is_paid: false, allowed: 'trial', package: null })
    const full = await build(building.id, 'full')
    expect(full.statusCode).toBe(402)
    expect(full.envelope.messageId).toBe('error.paymentRequired')

    const after = await buildToEnd(building.id)
    const trial = after.package!
    expect(trial).toMatchObject({ state: 'ready', variant: 'trial', is_watermarked: true })
    expect(trial.progress).toBe(1)
    const served = await download(trial.download_url!)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('application/zip')
    expect(served.headers['content-disposition']).toBe(`attachment; filename="${trial.id}.zip"`)
    expect(served.rawPayload.byteLength).toBe(trial.size_bytes)
    const entries = unzipSync(new Uint8Array(served.rawPayload))
    const names = Object.keys(entries)
    expect(names[0]).toBe('manifest.json')
    expect(names).toEqual(
      expect.arrayContaining([
        'building/models.json',
        'pois.json',
        'templates.json',
        'draws.json',
        'gml/fjk.gml',
        'gml/gml.json',
      ]),
    )
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']))
    expect(manifest).toMatchObject({
      format: 'twinscape-offline-package',
      variant: 'trial',
      watermark: true,
      project: { id: building.id, name: 'Packaged tower', kind: 'building' },
      counts: { models: 1, floors: 2, library_models: 0 },
    })
    // no library models: no list of them
    expect(names).not.toContain('library-models.json')
    // the model's bytes are the stored SBM's
    const models = JSON.parse(new TextDecoder().decode(entries['building/models.json']))
    const sbm = entries[models.models[0].file]!
    expect(Buffer.from(sbm).equals((await sbmFixtureFiles()).twoStoreys)).toBe(true)
    expect(entries['gml/fjk.gml']!.byteLength).toBe(344_773)
    // each template names its icon and model inside the package, and those files are there
    const templates = JSON.parse(new TextDecoder().decode(entries['templates.json']))
    const byCode = new Map(
      templates.map((t: { poicategory_code: string }) => [t.poicategory_code, t]),
    )
    const icon2d = (byCode.get('CAM-2D') as { package: { icon: string; model: null } }).package
    expect(icon2d.icon).toMatch(/^templates\/icons\/.+\.png$/)
    expect(icon2d.model).toBeNull()
    expect(Buffer.from(entries[icon2d.icon]!.subarray(1, 4)).toString()).toBe('PNG')
    const model3d = (byCode.get('camera-3d') as { package: { icon: string; model: string } })
      .package
    expect(model3d.model).toMatch(/^templates\/models\/[0-9a-f-]{36}\/model\.sbm$/)
    expect(Buffer.from(entries[model3d.model]!.subarray(0, 4)).toString()).toBe('glTF')
    expect(entries[model3d.icon]!.byteLength).toBeGreaterThan(0)
    const captures = JSON.parse(new TextDecoder().decode(entries['captures/captures.json']))
    expect(captures).toEqual([
      expect.objectContaining({
        name: 'Lobby',
        seq: 1,
        camera: { position: [1, 5, 10], target: [0, 0, 0] },
      }),
    ])
    expect(Buffer.from(entries[captures[0].file]!).equals((await sampleFiles()).png)).toBe(true)
    expect(manifest.counts).toMatchObject({ pois: 2, templates: 2, captures: 1 })
  })

  it('serves byte ranges, so a cut download resumes', async () => {
    const { download_url: url, size_bytes: size } = (await state(building.id)).package!
    const whole = (await download(url!)).rawPayload
    const head = await download(url!, { range: 'bytes=0-999' })
    expect(head.statusCode).toBe(206)
    expect(head.headers['content-range']).toBe(`bytes 0-999/${size}`)
    const rest = await download(url!, { range: 'bytes=1000-' })
    expect(rest.statusCode).toBe(206)
    expect(Buffer.concat([head.rawPayload, rest.rawPayload]).equals(whole)).toBe(true)
    const past = await download(url!, { range: `bytes=${size! + 10}-` })
    expect(past.statusCode).toBe(416)
  })

  it('refuses other users, hostile reqPaths and addresses without a valid grant', async () => {
    const own = (await state(building.id)).package!
    const strangerState = await call('/web/bimBiz/checkSbkDownloadState', stranger, {
      project_id: building.id,
    })
    expect(strangerState.statusCode).toBe(403)
    expect((await build(building.id, 'trial', stranger)).statusCode).toBe(403)

    const address = new URL(own.download_url!, 'http://localhost')
    const withQuery = (changes: Record<string, string>) => {
      const query = new URLSearchParams(address.search)
      for (const [key, value] of Object.entries(changes)) query.set(key, value)
      return `${address.pathname}?${query.toString()}`
    }
    for (const reqPaths of [
      `../${own.id}.zip`,
      `/etc/passwd`,
      `${building.id}/${own.id}.zip`,
      `..\\${own.id}.zip`,
      `${own.id}.zip/..`,
      'manifest.json',
    ]) {
      const refused = await download(withQuery({ reqPaths }))
      expect(refused.statusCode, reqPaths).toBe(400)
      expect(JSON.parse(refused.body).messageId).toBe('offlinePackage.badPath')
    }
    // the grant is for this package only
    expect((await download(withQuery({ grant: 'x' }))).statusCode).toBe(403)
    const noGrant = new URLSearchParams(address.search)
    noGrant.delete('grant')
    expect((await download(`${address.pathname}?${noGrant.toString()}`)).statusCode).toBe(403)
    // another project's id with this package: not its file
    const otherProject = await download(withQuery({ project_id: othersBuilding.id }))
    expect(otherProject.statusCode).toBe(404)
    expect(JSON.parse(otherProject.body).messageId).toBe('offlinePackage.badPath')
  })

  it('blocks building and downloading while an order is unpaid (§8 text), then builds the paid package', async () => {
    const trial = (await state(building.id)).package!
    const list = (await order('getShoppingList', { project_id: building.id })).envelope
      .datum as unknown as ShoppingListDatum
    const idOf = (itemId: string) => list.lines.find((line) => line.item_id === itemId)!.id
    const added = await order('addOrder', {
      project_id: building.id,
      ids: [idOf('watermark-removal'), idOf('support-community')],
    })
    expect(added.envelope.code, added.envelope.message).toBe('0')
    const orderId = added.envelope.datum.orderId as string

    const blocked = await state(building.id)
    expect(blocked).toMatchObject({ allowed: 'none', unpaid_order_id: orderId })
    expect(blocked.package!.download_url).toBeNull()
    const refusedDownload = await download(trial.download_url!)
    expect(refusedDownload.statusCode).toBe(402)
    expect(JSON.parse(refusedDownload.body).message).toBe(
      formatServerMessage('order.unpaidBlocksDownload', {}),
    )
    expect(JSON.parse(refusedDownload.body).message).toBe('You have an order not paid...')
    const refusedBuild = await build(building.id)
    expect(refusedBuild.statusCode).toBe(402)
    expect(refusedBuild.envelope.messageId).toBe('order.unpaidBlocksDownload')

    const total = added.envelope.datum.total as number
    const asked = (await order('recharge', { amount: total })).envelope.datum as unknown as Recharge
    expect((await order('confirmRecharge', { code: asked.code }, admin)).envelope.code).toBe('0')
    const paid = await order('pay', { order_id: orderId, idempotency_key: randomUUID() })
    expect(paid.envelope.code, paid.envelope.message).toBe('0')
    const balanceAfterPay = await balance()
    expect(balanceAfterPay).toBe(0)

    const after = await buildToEnd(building.id)
    expect(after).toMatchObject({ is_paid: true, allowed: 'full' })
    const full = after.package!
    // watermark removal was paid: the full package carries none
    expect(full).toMatchObject({ state: 'ready', variant: 'full', is_watermarked: false })
    const entries = unzipSync(new Uint8Array((await download(full.download_url!)).rawPayload))
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']))
    expect(manifest).toMatchObject({ variant: 'full', watermark: false })
    // the trial package was replaced: its file is gone and its address finds nothing
    const replaced = await download(trial.download_url!)
    expect(replaced.statusCode).toBe(404)
    const folder = join(testApp.config.dataDir, 'offline-packages', building.id)
    expect(await readdir(folder)).toEqual([`${full.id}.zip`])
    // building never moves points
    expect(await balance()).toBe(balanceAfterPay)
    expect((await verifyLedger(app.deps.database.db)).problems).toEqual([])
  })

  it('joins a build already running instead of starting a second one', async () => {
    const [first, second] = await Promise.all([build(building.id), build(building.id)])
    expect(first.envelope.code).toBe('0')
    expect(second.envelope.datum.id).toBe(first.envelope.datum.id)
    await app.deps.services.offlinePackages.settle()
    expect((await state(building.id)).package).toMatchObject({
      id: first.envelope.datum.id,
      state: 'ready',
    })
  })

  it('after a crash mid-build serves nothing half-written and builds again', async () => {
    const readyBefore = (await state(building.id)).package!
    // what a SIGKILL mid-build leaves: a `building` row, a part file, its POI list's spool,
    // maybe the renamed zip
    const cutId = await insertCutPackageBuild(testApp, building.id, {
      variant: 'full',
      afterMs: 60_000,
    })
    const folder = join(testApp.config.dataDir, 'offline-packages', building.id)
    await mkdir(folder, { recursive: true })
    await writeFile(join(folder, `${cutId}.zip.pois-0.part`), '[]\n')
    await writeFile(join(folder, `${cutId}.zip.part`), randomBytes(4096))
    await writeFile(join(folder, `${cutId}.zip`), randomBytes(4096))
    const balanceBefore = await balance()

    // the start-up recovery (the same call the app makes on ready)
    expect(await app.deps.services.offlinePackages.recover()).toBe(1)
    const after = await state(building.id)
    expect(after.package).toMatchObject({
      id: cutId,
      state: 'failed',
      error_message_id: 'offlinePackage.interrupted',
      download_url: null,
    })
    expect(await readdir(folder)).toEqual([`${readyBefore.id}.zip`])
    // the cut build's name never serves bytes, even with a valid-looking address
    const address = new URL(readyBefore.download_url!, 'http://localhost')
    const query = new URLSearchParams(address.search)
    query.set('reqPaths', `${cutId}.zip`)
    expect((await download(`${address.pathname}?${query.toString()}`)).statusCode).toBe(403)

    testApp.clock.advanceMs(120_000)
    const rebuilt = await buildToEnd(building.id)
    expect(rebuilt.package).toMatchObject({ state: 'ready', variant: 'full' })
    expect(await balance()).toBe(balanceBefore)
  })

  it('fails a build whose stored file went missing, leaving no file', async () => {
    const project = await createProject(app, owner, { kind: 'building', name: 'Broken store' })
    const fixtures = await sbmFixtureFiles()
    await postMultipart(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: fixtures.duck, fileName: 'duck.sbm' },
    ])
    await app.deps.database.db
      .updateTable('building_models')
      .set({ sha256: 'f'.repeat(64) })
      .where('project_id', '=', project.id)
      .execute()
    const after = await buildToEnd(project.id, 'trial')
    expect(after.package).toMatchObject({
      state: 'failed',
      error_message_id: 'offlinePackage.failed',
      download_url: null,
    })
    const folder = join(testApp.config.dataDir, 'offline-packages', project.id)
    expect(await readdir(folder).catch(() => [])).toEqual([])
  })

  it("carries the project's library models where the editor placed them, each file once", async () => {
    const modeller = await signInNewUser(app, `package-library-${randomBytes(3).toString('hex')}`)
    const duckGlb = await sharedFile('gltf/Duck/Duck.glb')
    const duckSbm = (await sbmFixtureFiles()).duck
    const addModel = async (
      projectId: string,
      file: { fileName: string; value: Buffer },
      fields: Record<string, number>,
    ) => {
      const added = await postMultipart<CityModel>(app, '/web/cityModel/upload', modeller, [
        { name: 'project_id', value: projectId },
        ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
        { name: 'file', ...file },
      ])
      expect(added.envelope.code, added.envelope.message).toBe('0')
      return added.envelope.datum
    }
    /** Builds the trial package and answers its files, its manifest and its model list. */
    const packageOf = async (projectId: string) => {
      const started = await build(projectId, 'trial', modeller)
      expect(started.envelope.code, started.envelope.message).toBe('0')
      await app.deps.services.offlinePackages.settle()
      const ready = (await state(projectId, modeller)).package!
      expect(ready.state).toBe('ready')
      const entries = unzipSync(new Uint8Array((await download(ready.download_url!)).rawPayload))
      const read = (path: string) => JSON.parse(new TextDecoder().decode(entries[path]))
      return { entries, manifest: read('manifest.json'), listed: read('library-models.json') }
    }

    // a city: two copies of one GLB on the map, one turned, raised, scaled and sped up
    const city = await createProject(app, modeller, { kind: 'city', name: 'Packaged square' })
    const raised = await addModel(
      city.id,
      { fileName: 'Duck.glb', value: duckGlb },
      { lng: 126.978, lat: 37.5665, height: 12, heading: 90, scale: 5 },
    )
    const plain = await addModel(
      city.id,
      { fileName: 'Duck.glb', value: duckGlb },
      { lng: 126.979, lat: 37.5666 },
    )
    const sped = await call('/web/cityModel/update', modeller, {
      id: raised.id,
      model_name: 'Big duck',
      animation_speed: 2,
    })
    expect(sped.envelope.code, sped.envelope.message).toBe('0')
    const onMap = await packageOf(city.id)
    expect(onMap.manifest.counts.library_models).toBe(2)
    expect(onMap.manifest.contents.library_models).toBe('library-models.json')
    // added at one moment (the test clock stands still): listed by created_at, then by id
    expect(onMap.listed).toHaveLength(2)
    expect(onMap.listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: raised.id,
          name: 'Big duck',
          file_name: 'Duck.glb',
          format: 'glb',
          lng: 126.978,
          lat: 37.5665,
          height: 12,
          heading: 90,
          scale: 5,
          animation: { clip: 0, speed: 2, loop: true, autoplay: false },
        }),
        expect.objectContaining({ id: plain.id, name: 'Duck', lng: 126.979, height: 0, scale: 1 }),
      ]),
    )
    // one file for both, the bytes uploaded
    const glbPath = onMap.listed[0].file as string
    expect(glbPath).toMatch(/^library-models\/[0-9a-f]{16}\.glb$/)
    expect(onMap.listed[1].file).toBe(glbPath)
    expect(Object.keys(onMap.entries).filter((name) => name.startsWith('library-models/'))).toEqual(
      [glbPath],
    )
    expect(Buffer.from(onMap.entries[glbPath]!).equals(duckGlb)).toBe(true)

    // a building: an SBM at scene metres
    const hall = await createProject(app, modeller, { kind: 'building', name: 'Packaged hall' })
    const inHall = await addModel(
      hall.id,
      { fileName: 'duck.sbm', value: duckSbm },
      { x: 1.5, y: 0.5, z: -2, heading: 30 },
    )
    const inBuilding = await packageOf(hall.id)
    expect(inBuilding.manifest.counts.library_models).toBe(1)
    expect(inBuilding.listed).toEqual([
      expect.objectContaining({ id: inHall.id, format: 'sbm', x: 1.5, y: 0.5, z: -2, heading: 30 }),
    ])
    const sbmPath = inBuilding.listed[0].file as string
    expect(sbmPath).toMatch(/^library-models\/[0-9a-f]{16}\.sbm$/)
    expect(Buffer.from(inBuilding.entries[sbmPath]!).equals(duckSbm)).toBe(true)
  })
})
