import ExcelJS from 'exceljs'
import { unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../http/app-error'
import { batchColumnsOf } from './poi-batch-files.service'
import { buildPoiBatchWorkbook, validatePoiBatchFile } from './poi-batch-file'

const attributes = [
  { property_column: 'brand', column_des: 'Brand', column_example: 'Hikvision' },
  { property_column: 'install_year', column_des: '설치 연도', column_example: '2024' },
]
const columns = batchColumnsOf(attributes)
const keys = columns.map((column) => column.key)

/** A workbook whose first sheet has `header` and `rows` (cells as given). */
async function workbookOf(header: readonly string[], rows: readonly unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('POI')
  sheet.addRow([...header])
  for (const row of rows) sheet.addRow(row)
  return Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
}

/** A valid POI row in `keys` order. */
function rowOf(values: Partial<Record<string, unknown>> = {}): unknown[] {
  const base: Record<string, unknown> = { name: 'Camera 01', x: 121.5, y: 31.2, ...values }
  return keys.map((key) => base[key] ?? null)
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  try {
    await run
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('batch-POI template file', () => {
  it('has the POI fields then the static attributes, and explains them in the language asked', async () => {
    const bytes = await buildPoiBatchWorkbook({ templateName: 'Camera', columns, language: 'ko' })
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
    const [poiSheet, explanation] = workbook.worksheets
    expect((poiSheet!.getRow(1).values as unknown[]).slice(1)).toEqual(keys)
    expect(keys.slice(0, 4)).toEqual(['name', 'devicecode', 'x', 'y'])
    expect(keys.slice(-2)).toEqual(['brand', 'install_year'])
    expect(explanation!.name).toBe('설명')
    expect((explanation!.getRow(2).values as unknown[]).slice(1)).toEqual([
      'name',
      '이름',
      '예',
      'POI 이름 (필수, 100자 이내)',
      'Camera 01',
    ])
    const english = new ExcelJS.Workbook()
    await english.xlsx.load(
      (await buildPoiBatchWorkbook({
        templateName: 'Camera',
        columns,
        language: 'en',
      })) as unknown as ArrayBuffer,
    )
    expect(english.worksheets[1]!.name).toBe('Explanation')
    const zh = new ExcelJS.Workbook()
    await zh.xlsx.load(
      (await buildPoiBatchWorkbook({
        templateName: 'Camera',
        columns,
        language: 'zh',
      })) as unknown as ArrayBuffer,
    )
    expect(zh.worksheets[1]!.getCell('B2').value).toBe('名称')
  })

  it('accepts the downloaded file once filled, columns in any order', async () => {
    const downloaded = await buildPoiBatchWorkbook({
      templateName: 'Camera',
      columns,
      language: 'en',
    })
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(downloaded as unknown as ArrayBuffer)
    workbook.worksheets[0]!.addRow(rowOf({ brand: 'Acme' }))
    workbook.worksheets[0]!.addRow(rowOf({ name: '카메라 2', z: 3 }))
    const filled = Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
    await expect(validatePoiBatchFile(filled, columns)).resolves.toEqual({
      rowCount: 2,
      columns: keys,
    })

    const reordered = [...keys].reverse()
    const row = rowOf()
    const reorderedRow = reordered.map((key) => row[keys.indexOf(key)])
    await expect(
      validatePoiBatchFile(await workbookOf(reordered, [reorderedRow]), columns),
    ).resolves.toMatchObject({ rowCount: 1 })
  })

  it('lists every bad cell by row and column, and refuses the whole file', async () => {
    const file = await workbookOf(keys, [
      rowOf(),
      rowOf({ name: null, x: 'east' }),
      rowOf({ heading: 400 }),
      rowOf({ y: { formula: '1+1', result: 2 } }),
    ])
    const error = await refusal(validatePoiBatchFile(file, columns))
    expect(error.messageId).toBe('poiBatch.rowErrors')
    expect(error.params).toEqual({ count: 4 })
    const details = error.details as Array<{ row: number; column: string; messageId: string }>
    expect(details.map(({ row, column, messageId }) => ({ row, column, messageId }))).toEqual([
      { row: 3, column: 'name', messageId: 'validation.required' },
      { row: 3, column: 'x', messageId: 'validation.expectedNumber' },
      { row: 4, column: 'heading', messageId: 'validation.tooBig' },
      { row: 5, column: 'y', messageId: 'poiBatch.formula' },
    ])
  })

  it('refuses wrong columns, naming the missing and unknown ones', async () => {
    const header = keys.filter((key) => key !== 'brand').concat('colour')
    const error = await refusal(validatePoiBatchFile(await workbookOf(header, [rowOf()]), columns))
    expect(error.messageId).toBe('poiBatch.wrongColumns')
    expect(error.params).toEqual({ missing: 'brand', unknown: 'colour' })
  })

  it('refuses an empty file, and one that is not a workbook', async () => {
    expect(
      (await refusal(validatePoiBatchFile(await workbookOf(keys, []), columns))).messageId,
    ).toBe('poiBatch.noRows')
    expect(
      (await refusal(validatePoiBatchFile(Buffer.from('name,x,y\n'), columns))).messageId,
    ).toBe('poiBatch.notXlsx')
    const notWorkbook = zipSync({ 'readme.txt': new TextEncoder().encode('hello') })
    expect((await refusal(validatePoiBatchFile(notWorkbook, columns))).messageId).toBe(
      'poiBatch.wrongColumns',
    )
  })

  it('refuses a zip bomb disguised as a workbook before parsing it', async () => {
    const bomb = zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(40 * 1024 * 1024) })
    const error = await refusal(validatePoiBatchFile(bomb, columns))
    expect(error.messageId).toBe('poiBatch.unsafeFile')
    expect(error.kind).toBe('tooLarge')
  })

  /** A workbook whose sheet XML is written by hand: `rowCount` minimal POI rows. */
  async function handWrittenWorkbook(rowCount: number): Promise<Uint8Array> {
    const cell = (ref: string, text: string) =>
      `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
    const column = (index: number) => String.fromCharCode(65 + index)
    const rows = [
      `<row r="1">${keys.map((key, index) => cell(`${column(index)}1`, key)).join('')}</row>`,
    ]
    // one value per row keeps even a million rows small enough to build and zip in a moment
    for (let row = 2; row <= rowCount + 1; row++)
      rows.push(`<row r="${row}"><c r="A${row}"><v>1</v></c></row>`)
    const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData></worksheet>`
    const base = new ExcelJS.Workbook()
    base.addWorksheet('POI')
    const files = unzipSync(new Uint8Array((await base.xlsx.writeBuffer()) as ArrayBuffer))
    files['xl/worksheets/sheet1.xml'] = new TextEncoder().encode(sheet)
    return zipSync(files, { level: 1 })
  }

  it('stops reading at the row limit', async () => {
    const error = await refusal(validatePoiBatchFile(await handWrittenWorkbook(6_000), columns))
    expect(error.messageId).toBe('poiBatch.tooManyRows')
    expect(error.params).toEqual({ max: 5_000 })
  }, 60_000)

  it('refuses a million-row sheet with a clear message (never parsed whole)', async () => {
    const million = await handWrittenWorkbook(1_000_000)
    const error = await refusal(validatePoiBatchFile(million, columns))
    // ~45 MB of sheet XML: refused from the zip directory, before the row limit is reached
    expect(['poiBatch.unsafeFile', 'poiBatch.tooManyRows']).toContain(error.messageId)
    expect(error.kind).toBe('tooLarge')
  }, 60_000)
})
