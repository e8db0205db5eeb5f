import { type APIRequestContext, expect } from '@playwright/test'
import ExcelJS from 'exceljs'

/** One row of the batch-POI file, by its header keys. */
export type BatchRow = Record<string, string | number>

/**
 * A template's batch-POI XLSX as the templates screen downloads it, with these rows filled in
 * under its header of column keys (what a person fills in a spreadsheet program).
 */
export async function filledBatchFile(
  request: APIRequestContext,
  token: string,
  templateId: string,
  rows: readonly BatchRow[],
): Promise<Buffer> {
  const response = await request.post('/web/poi/downloadPoiTemplate', {
    headers: { Token: token },
    data: { pid: templateId },
  })
  expect(response.status()).toBe(200)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load((await response.body()) as unknown as ArrayBuffer)
  const sheet = workbook.worksheets[0]!
  const keys = (sheet.getRow(1).values as unknown[]).slice(1).map(String)
  expect(keys).toEqual(expect.arrayContaining(['name', 'x', 'y', 'z', 'floor_id']))
  for (const row of rows) sheet.addRow(keys.map((key) => row[key] ?? null))
  return Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
}
