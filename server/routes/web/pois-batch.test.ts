import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BatchCreatePoiDatum, PoiCustom, PoiDetail, PoiPage } from '../../../contract/pois'
import type { PoiBatchRowError, UploadPoiTemplateDatum } from '../../../contract/template-files'
import type { Project } from '../../../contract/project'
import type { Template } from '../../../contract/templates'
import { createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'
import { addFloors, type Caller, countPois, libraryCamera, okPoi } from './pois-test-kit'

/**
 * Batch add (issue 16 item 5): the filled batch-POI XLSX of the templates issue, or a CSV with
 * its header keys, creates its POIs in one transaction; any bad row refuses the whole file with
 * `{ row, column, messageId }` per cell and creates nothing.
 */

let test: TestApp
let owner: string
let other: string
let city: Project
let building: Project
let floors: string[]
let camera: Template

const download = async (pid: string) => {
  const response = await test.app.inject({
    method: 'POST',
    url: '/web/poi/downloadPoiTemplate',
    headers: { token: owner },
    payload: { pid },
  })
  expect(response.statusCode).toBe(200)
  return response.rawPayload
}

/** The downloaded file with POI rows added (values by column key). */
async function filled(rows: Array<Record<string, unknown>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load((await download(camera.id)) as unknown as ArrayBuffer)
  const sheet = workbook.worksheets[0]!
  const keys = (sheet.getRow(1).values as unknown[]).slice(1) as string[]
  for (const row of rows) sheet.addRow(keys.map((key) => row[key] ?? null))
  return Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
}

const batch = (
  token: string,
  fields: Record<string, string>,
  file?: { bytes: Buffer; name: string },
) =>
  postMultipart<BatchCreatePoiDatum & { details?: PoiBatchRowError[] }>(
    test.app,
    '/web/poi/batchCreatPoi',
    token,
    [
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      ...(file === undefined
        ? []
        : [{ name: 'file', value: file.bytes, fileName: file.name, contentType: 'text/csv' }]),
    ],
  )

const cityRows = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: `Batch camera ${index + 1}`,
    devicecode: `B-${index + 1}`,
    x: 121.4 + index * 0.001,
    y: 31.2,
    z: 5,
    heading: 90,
    brand: index === 0 ? 'Hikvision' : null,
  }))

beforeAll(async () => {
  test = await createTestApp()
  owner = await signIn(test.app, testEditor)
  other = await signInNewUser(test.app, 'batch-other-editor')
  city = await createProject(test.app, owner, { name: 'Batch city' })
  building = await createProject(test.app, owner, { kind: 'building', name: 'Batch building' })
  floors = await addFloors(test.app, building.id, ['B1'])
  camera = await libraryCamera(test.app, owner)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('batch add from the XLSX', () => {
  it('creates 200 POIs from the filled file, in its order, with their attribute values', async () => {
    const bytes = await filled(cityRows(200))
    const file = { bytes, name: 'cameras.xlsx' }
    const dry = await batch(owner, { projectid: city.id, pid: camera.id, isDryRun: 'true' }, file)
    expect(dry.envelope.datum).toEqual({ count: 200, isDryRun: true, ids: [] })
    expect(await countPois(test.app, city.id)).toBe(0)

    const answer = await batch(owner, { projectid: city.id, pid: camera.id }, file)
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    expect(answer.envelope.datum.count).toBe(200)
    const caller: Caller = { token: owner }
    const page = await okPoi<PoiPage>(
      test.app,
      caller,
      'findPoi',
      { projectid: city.id },
      'pageSize=3',
    )
    expect(page.total).toBe(200)
    expect(page.list.map((poi) => poi.name)).toEqual([
      'Batch camera 1',
      'Batch camera 2',
      'Batch camera 3',
    ])
    expect(page.list[0]).toMatchObject({ devicecode: 'B-1', x: 121.4, heading: 90, z: 5 })
    const customs = await okPoi<PoiCustom[]>(test.app, caller, 'selectCustomByPoi', {
      id: page.list[0]!.id,
    })
    expect(customs.find((custom) => custom.property_column === 'brand')?.column_value).toBe(
      'Hikvision',
    )
    // an empty attribute cell keeps the template's example value
    const second = await okPoi<PoiCustom[]>(test.app, caller, 'selectCustomByPoi', {
      id: page.list[1]!.id,
    })
    expect(second.find((custom) => custom.property_column === 'brand')?.column_value).not.toBe('')
  })

  it('refuses the whole file with each bad row and column, creating nothing', async () => {
    const before = await countPois(test.app)
    const rows = cityRows(6).map((row, index) => ({ ...row, devicecode: `R-${index}` }))
    rows[1]!.x = 200 // longitude out of range
    rows[3]!.devicecode = 'B-1' // taken in this project by the first test
    const bytes = await filled(rows)
    const answer = await batch(
      owner,
      { projectid: city.id, pid: camera.id },
      {
        bytes,
        name: 'bad.xlsx',
      },
    )
    expect(answer.statusCode).toBe(400)
    expect(answer.envelope.messageId).toBe('poiBatch.rowErrors')
    expect(
      (answer.envelope.datum.details ?? []).map((error) => [
        error.row,
        error.column,
        error.messageId,
      ]),
    ).toEqual([
      [3, 'x', 'poi.longitudeRange'],
      [5, 'devicecode', 'poi.devicecodeTaken'],
    ])
    // a building needs a floor of the project on every row
    const noFloor = await batch(
      owner,
      { projectid: building.id, pid: camera.id },
      {
        bytes: await filled([
          { name: 'Lobby', x: 1, y: 2, floor_id: 'elsewhere' },
          { name: 'Hall', x: 1, y: 2 },
        ]),
        name: 'floors.xlsx',
      },
    )
    expect(
      (noFloor.envelope.datum.details ?? []).map((error) => [
        error.row,
        error.column,
        error.messageId,
      ]),
    ).toEqual([
      [2, 'floor_id', 'poi.floorNotFound'],
      [3, 'floor_id', 'poi.selectFloor'],
    ])
    // cell errors of the file itself are the template files' check
    const cells = await batch(
      owner,
      { projectid: city.id, pid: camera.id },
      {
        bytes: await filled([{ name: '', x: 'east', y: 1 }]),
        name: 'cells.xlsx',
      },
    )
    expect(cells.envelope.messageId).toBe('poiBatch.rowErrors')
    expect((cells.envelope.datum.details ?? []).map((error) => error.column)).toEqual(['name', 'x'])
    expect(await countPois(test.app)).toBe(before)
  })

  it('creates from a file stored by uploadPoiTemplate (its uuid), only for its uploader', async () => {
    const bytes = await filled([{ name: 'Stored', x: 1, y: 2, floor_id: floors[0] }])
    const stored = await postMultipart<UploadPoiTemplateDatum>(
      test.app,
      '/web/poi/uploadPoiTemplate',
      owner,
      [
        { name: 'pid', value: camera.id },
        { name: 'file', value: bytes, fileName: 'stored.xlsx' },
      ],
    )
    expect(stored.envelope.code, stored.envelope.message).toBe('0')
    const uuid = stored.envelope.datum.uuid
    const answer = await batch(owner, { projectid: building.id, pid: camera.id, uuid })
    expect(answer.envelope.datum.count).toBe(1)
    const detail = await okPoi<PoiDetail>(test.app, { token: owner }, 'findPoiDetail', {
      id: answer.envelope.datum.ids[0],
    })
    expect(detail).toMatchObject({ name: 'Stored', floor_id: floors[0] })
    const theirs = await batch(other, { projectid: building.id, pid: camera.id, uuid })
    expect(theirs.statusCode).toBe(403)
    const otherProject = await createProject(test.app, other, { name: 'Other city' })
    const foreignFile = await batch(other, { projectid: otherProject.id, pid: camera.id, uuid })
    expect(foreignFile.envelope.messageId).toBe('poiBatch.fileNotFound')
  })

  it('needs a template, a file and a project the caller may change', async () => {
    const bytes = await filled(cityRows(1))
    const file = { bytes, name: 'one.xlsx' }
    expect((await batch(owner, { projectid: city.id }, file)).envelope.messageId).toBe(
      'poi.selectCategory',
    )
    expect((await batch(owner, { projectid: city.id, pid: camera.id })).envelope.messageId).toBe(
      'poiBatch.chooseFileOrCsv',
    )
    const stranger = await batch(other, { projectid: city.id, pid: camera.id }, file)
    expect(stranger.statusCode).toBe(403)
    const guest = await signInNewUser(test.app, 'batch-guest', 'guest')
    expect((await batch(guest, { projectid: city.id, pid: camera.id }, file)).statusCode).toBe(403)
  })
})

describe('a full sheet', () => {
  it('is read as a job of the editor in a worker thread while health is answered', async () => {
    const bytes = await filled(cityRows(500))
    // a project of its own: the device codes of the other tests' POIs are taken in theirs
    const project = await createProject(test.app, owner, { name: 'Full sheet city' })
    const jobs = test.app.deps.jobs
    const answering = batch(
      owner,
      { projectid: project.id, pid: camera.id, isDryRun: 'true' },
      { bytes, name: 'cameras.xlsx' },
    )
    let isAnswered = false
    void answering.then(() => {
      isAnswered = true
    })
    let wasReadAsJob = false
    let healthWhileReading: number | undefined
    while (!isAnswered) {
      if (jobs.load('cpu').running > 0 && healthWhileReading === undefined) {
        wasReadAsJob = true
        const health = await test.app.inject({ method: 'GET', url: '/web/health' })
        // still reading when health was answered: the request thread was free meanwhile
        if (jobs.load('cpu').running > 0) healthWhileReading = health.statusCode
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(wasReadAsJob).toBe(true)
    expect(healthWhileReading).toBe(200)
    expect((await answering).envelope.datum).toEqual({ count: 500, isDryRun: true, ids: [] })
  }, 120_000)
})

describe('batch add from a CSV', () => {
  it('reads the same header keys as text (codes keep leading zeros), quotes and a BOM', async () => {
    const csv = [
      '\uFEFFname,devicecode,x,y,z,heading,pitch,roll,floor_id,distance_min,distance_max,brand,stream_url',
      '"Gate, north",007,121.5,31.25,,,,,,,,"Dahua ""Pro""",',
      'Gate south,008,121.5,31.24,2,-45,,,,,100,,rtsp://cam/8',
    ].join('\r\n')
    const answer = await batch(
      owner,
      { projectid: city.id, pid: camera.id },
      {
        bytes: Buffer.from(csv),
        name: 'gates.csv',
      },
    )
    expect(answer.envelope.code, JSON.stringify(answer.envelope)).toBe('0')
    expect(answer.envelope.datum.count).toBe(2)
    const [north, south] = await Promise.all(
      answer.envelope.datum.ids.map((id) =>
        okPoi<PoiDetail>(test.app, { token: owner }, 'findPoiDetail', { id }),
      ),
    )
    expect(north).toMatchObject({ name: 'Gate, north', devicecode: '007', z: 0 })
    expect(north!.customs.find((custom) => custom.property_column === 'brand')?.column_value).toBe(
      'Dahua "Pro"',
    )
    expect(south).toMatchObject({ devicecode: '008', heading: -45, distance_max: 100 })
  })

  it('refuses a CSV with wrong columns or bad rows, creating nothing', async () => {
    const before = await countPois(test.app)
    const wrong = await batch(
      owner,
      { projectid: city.id, pid: camera.id },
      {
        bytes: Buffer.from('name,x\nA,1\n'),
        name: 'wrong.csv',
      },
    )
    expect(wrong.envelope.messageId).toBe('poiBatch.wrongColumns')
    const header =
      'name,devicecode,x,y,z,heading,pitch,roll,floor_id,distance_min,distance_max,brand,stream_url'
    const bad = await batch(
      owner,
      { projectid: city.id, pid: camera.id },
      {
        bytes: Buffer.from(`${header}\nA,,121,31,,,,,,,,,\nB,,121,95,,,,,,,,,\n`),
        name: 'bad.csv',
      },
    )
    expect(bad.envelope.datum.details?.map((error) => [error.row, error.column])).toEqual([
      [3, 'y'],
    ])
    const binary = await batch(
      owner,
      { projectid: city.id, pid: camera.id },
      {
        bytes: Buffer.from([0, 1, 2, 255, 254]),
        name: 'x.csv',
      },
    )
    expect(binary.envelope.messageId).toBe('poiBatch.notCsv')
    expect(await countPois(test.app)).toBe(before)
  })
})
