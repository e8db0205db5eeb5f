import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Category, Template } from '../../../contract/templates'
import { templateCalls } from '../../../contract/templates'
import type { UploadPoiTemplateDatum } from '../../../contract/template-files'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { postMultipart, sampleFiles, signInNewUser, uploadImage } from './project-test-kit'

let test: TestApp
let admin: string
let editor: string
let other: string
let guest: string
let template: Template

async function ok<Datum>(token: string, url: string, body: unknown): Promise<Datum> {
  const answer = await callApi<Datum>(test.app, { url, token, json: body })
  if (answer.envelope.code !== '0') throw new Error(`${url}: ${answer.envelope.message}`)
  return answer.envelope.datum
}

const download = (token: string | undefined, pid: string | undefined, language?: string) =>
  test.app.inject({
    method: 'POST',
    url: '/web/poi/downloadPoiTemplate',
    headers: {
      ...(token === undefined ? {} : { token }),
      ...(language === undefined ? {} : { cookie: `language=${language}` }),
    },
    payload: pid === undefined ? {} : { pid },
  })

const uploadFilled = (
  token: string,
  pid: string | undefined,
  bytes: Buffer,
  fileName = 'filled.xlsx',
) =>
  postMultipart<UploadPoiTemplateDatum>(test.app, '/web/poi/uploadPoiTemplate', token, [
    ...(pid === undefined ? [] : [{ name: 'pid', value: pid }]),
    { name: 'file', value: bytes, fileName, contentType: 'application/octet-stream' },
  ])

async function workbookOf(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
  return workbook
}

/** The downloaded file with POI rows added (values by column key). */
async function filledFrom(
  downloaded: Buffer,
  rows: Array<Record<string, unknown>>,
): Promise<Buffer> {
  const workbook = await workbookOf(downloaded)
  const sheet = workbook.worksheets[0]!
  const keys = (sheet.getRow(1).values as unknown[]).slice(1) as string[]
  for (const row of rows) sheet.addRow(keys.map((key) => row[key] ?? null))
  return Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
}

const storedBatchFiles = async () => ({
  rows: await test.app.deps.database.db.selectFrom('poi_batch_files').select('id').execute(),
  files: await readdir(join(test.config.dataDir, 'poi-batch-files')).catch(() => [] as string[]),
})

beforeAll(async () => {
  test = await createTestApp()
  admin = await signIn(test.app, testAdmin)
  editor = await signIn(test.app, testEditor)
  other = await signInNewUser(test.app, 'batch-other')
  guest = await signInNewUser(test.app, 'batch-guest', 'guest')
  const { png } = await sampleFiles()
  const icon = await uploadImage(test.app, editor, png, 'icon.png')
  const category = await ok<Category>(editor, templateCalls.createCategory.url, {
    category_name: 'Cameras',
    pid: '1',
  })
  template = await ok<Template>(editor, templateCalls.createTemplate.url, {
    name: 'Dome camera',
    poicategory_code: 'DOME',
    piddes: category.piddes,
    iconpath: `${icon.rootPath}${icon.jpgName}`,
  })
  for (const property of [
    { property_column: 'brand', column_des: '제조사', column_example: 'Acme' },
    { property_column: 'install_year', column_des: 'Install year', column_example: '2024' },
  ]) {
    await ok(editor, templateCalls.createProperty.url, { poicategoryid: template.id, ...property })
  }
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('batch-POI template download (/poi/downloadPoiTemplate)', () => {
  it("has the POI fields and the template's static attributes, explained in the cookie's language", async () => {
    const response = await download(editor, template.id, 'zh')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('spreadsheetml')
    expect(response.headers['content-disposition']).toContain('DOME-poi-batch.xlsx')
    const workbook = await workbookOf(response.rawPayload)
    const keys = (workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)
    expect(keys.slice(0, 3)).toEqual(['name', 'devicecode', 'x'])
    // attributes in the order they were added (the test clock gives both one instant)
    expect([...keys.slice(-2)].sort()).toEqual(['brand', 'install_year'])
    const explanation = workbook.worksheets[1]!
    expect(explanation.name).toBe('说明')
    const brandRow = explanation
      .getRows(2, keys.length)!
      .find((row) => row.getCell(1).value === 'brand')
    expect(brandRow?.getCell(2).value).toBe('제조사')
    expect(brandRow?.getCell(5).value).toBe('Acme')

    // no cookie: Korean, the console's default
    const korean = await workbookOf((await download(editor, template.id)).rawPayload)
    expect(korean.worksheets[1]!.name).toBe('설명')
    const english = await workbookOf((await download(editor, template.id, 'en')).rawPayload)
    expect(english.worksheets[1]!.name).toBe('Explanation')
  })

  it("says 'Select the POI category' without one", async () => {
    const response = await download(editor, undefined)
    expect(response.statusCode).toBe(400)
    expect(response.json().messageId).toBe('poiBatch.selectCategory')
    expect(response.json().message).toContain('Select the POI category')
  })

  it('access: owner and admin download; another editor gets not-found; guests and anonymous are refused', async () => {
    expect((await download(editor, template.id)).statusCode).toBe(200)
    expect((await download(admin, template.id)).statusCode).toBe(200)
    const others = await download(other, template.id)
    expect(others.statusCode).toBe(404)
    expect(others.json().messageId).toBe('template.notFound')
    expect((await download(guest, template.id)).statusCode).toBe(403)
    expect((await download(undefined, template.id)).json().code).toBe('2011')
  })

  it('a seeded library template gives its file to any editor', async () => {
    const library = await test.app.deps.database.db
      .selectFrom('poi_templates')
      .select('id')
      .where('owner_id', '=', '')
      .executeTakeFirst()
    expect(library).toBeDefined()
    expect((await download(other, library!.id)).statusCode).toBe(200)
  })
})

describe('filled batch-POI file (/poi/uploadPoiTemplate)', () => {
  let downloaded: Buffer
  beforeAll(async () => {
    downloaded = (await download(editor, template.id, 'en')).rawPayload
  })

  it('stores a valid file and answers its rows and columns; nothing else is created', async () => {
    const filled = await filledFrom(downloaded, [
      { name: 'Gate camera', x: 121.5, y: 31.2, brand: 'Acme' },
      { name: '로비 카메라', x: 121.51, y: 31.21, z: 4, heading: 90, install_year: '2023' },
    ])
    const poisBefore = await test.app.deps.database.db.selectFrom('pois').select('id').execute()
    const { statusCode, envelope } = await uploadFilled(editor, template.id, filled)
    expect(statusCode).toBe(200)
    expect(envelope.datum).toMatchObject({ pid: template.id, rowCount: 2, fileName: 'filled.xlsx' })
    expect(envelope.datum.columns).toContain('install_year')
    const stored = await storedBatchFiles()
    expect(stored.rows.map((row) => row.id)).toContain(envelope.datum.uuid)
    expect(stored.files).toContain(`${envelope.datum.uuid}.xlsx`)
    // creating the POIs is the POI issue's
    expect(await test.app.deps.database.db.selectFrom('pois').select('id').execute()).toHaveLength(
      poisBefore.length,
    )
  })

  describe('bad files: row-level errors or a clear refusal, nothing stored', () => {
    const expectNothingStored = async (run: () => Promise<void>) => {
      const before = await storedBatchFiles()
      await run()
      expect(await storedBatchFiles()).toEqual(before)
    }

    it('lists the bad cells with row, column and reason', async () => {
      await expectNothingStored(async () => {
        const filled = await filledFrom(downloaded, [
          { name: 'Fine', x: 1, y: 2 },
          { x: 'far east', y: 2 },
          { name: 'Tilted', x: 1, y: 2, pitch: 120 },
        ])
        const { statusCode, envelope } = await uploadFilled(editor, template.id, filled)
        expect(statusCode).toBe(400)
        expect(envelope.messageId).toBe('poiBatch.rowErrors')
        const details = (envelope.datum as unknown as { details: Array<Record<string, unknown>> })
          .details
        expect(details.map(({ row, column, messageId }) => [row, column, messageId])).toEqual([
          [3, 'name', 'validation.required'],
          [3, 'x', 'validation.expectedNumber'],
          [4, 'pitch', 'validation.tooBig'],
        ])
      })
    })

    it('refuses formulas, wrong columns, a zip bomb, a non-workbook and a missing category', async () => {
      await expectNothingStored(async () => {
        const formula = await filledFrom(downloaded, [
          { name: 'Sum', x: { formula: '1+2', result: 3 }, y: 2 },
        ])
        expect((await uploadFilled(editor, template.id, formula)).envelope.messageId).toBe(
          'poiBatch.rowErrors',
        )

        // the file of another template (no static attributes) has other columns
        const workbook = await workbookOf(downloaded)
        const sheet = workbook.worksheets[0]!
        const dropped = String(sheet.getRow(1).getCell(sheet.columnCount).value)
        sheet.spliceColumns(sheet.columnCount, 1)
        workbook.worksheets[0]!.addRow(['A', null, 1, 2])
        const wrong = Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
        const wrongAnswer = await uploadFilled(editor, template.id, wrong)
        expect(wrongAnswer.envelope.messageId).toBe('poiBatch.wrongColumns')
        expect(wrongAnswer.envelope.params).toEqual({ missing: dropped, unknown: '-' })

        const bomb = Buffer.from(
          zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(40 * 1024 * 1024) }),
        )
        const bombAnswer = await uploadFilled(editor, template.id, bomb)
        expect(bombAnswer.statusCode).toBe(413)
        expect(bombAnswer.envelope.messageId).toBe('poiBatch.unsafeFile')

        const csv = await uploadFilled(
          editor,
          template.id,
          Buffer.from('name,x,y\nA,1,2\n'),
          'pois.csv',
        )
        expect(csv.statusCode).toBe(415)
        expect(csv.envelope.messageId).toBe('poiBatch.notXlsx')

        const noCategory = await uploadFilled(editor, undefined, downloaded)
        expect(noCategory.envelope.messageId).toBe('poiBatch.selectCategory')
      })
    })

    it("refuses another editor's template and a file over 10 MB", async () => {
      await expectNothingStored(async () => {
        const filled = await filledFrom(downloaded, [{ name: 'A', x: 1, y: 2 }])
        const theirs = await uploadFilled(other, template.id, filled)
        expect(theirs.statusCode).toBe(404)
        expect(theirs.envelope.messageId).toBe('template.notFound')
        const huge = await uploadFilled(editor, template.id, Buffer.alloc(11 * 1024 * 1024))
        expect(huge.statusCode).toBe(413)
        expect(huge.envelope.messageId).toBe('poiBatch.tooLarge')
        expect((await uploadFilled(guest, template.id, filled)).statusCode).toBe(403)
      })
    })
  })
})
