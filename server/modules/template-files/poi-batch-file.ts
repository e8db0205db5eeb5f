import { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { type PoiBatchRowError, poiBatchMaxRows } from '../../../contract/template-files'
import { formatServerMessage, type MessageId, type MessageParam } from '../../../contract/messages'
import { toArchiveSource } from '../../../workers/unzip/archive-source'
import { isZipError } from '../../../workers/unzip/zip-errors'
import { readArchiveDirectory } from '../../../workers/unzip/zip-reader'
import { AppError } from '../../http/app-error'
import type { MessageLanguage } from '../messaging/message-texts'
import { explanationTexts, type PoiBatchColumn } from './poi-batch-columns'

/** Name of the sheet POIs are filled in (the first sheet; its name is not checked). */
const poiSheetName = 'POI'

/**
 * Builds the batch-POI template file: sheet 1 has the column keys in row 1 (bold, frozen, as
 * wide as their labels) and nothing else; sheet 2 explains every column (label, whether it is
 * required, what to enter, an example) in `language`.
 */
export async function buildPoiBatchWorkbook(options: {
  templateName: string
  columns: readonly PoiBatchColumn[]
  language: MessageLanguage
}): Promise<Buffer> {
  const texts = explanationTexts[options.language]
  const workbook = new ExcelJS.Workbook()
  workbook.creator = 'Twinscape'
  const sheet = workbook.addWorksheet(poiSheetName, { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = options.columns.map((column) => ({
    header: column.key,
    key: column.key,
    width: Math.max(12, column.key.length + 4, column.label[options.language].length * 2),
  }))
  sheet.getRow(1).font = { bold: true }
  options.columns.forEach((column, index) => {
    sheet.getCell(1, index + 1).note =
      `${column.label[options.language]}${column.isRequired ? ` (${texts.required})` : ''}`
  })

  const explanation = workbook.addWorksheet(texts.sheetName)
  explanation.columns = [
    { header: texts.column, key: 'key', width: 18 },
    { header: texts.name, key: 'label', width: 22 },
    { header: texts.required, key: 'required', width: 10 },
    { header: texts.description, key: 'description', width: 70 },
    { header: texts.example, key: 'example', width: 16 },
  ]
  explanation.getRow(1).font = { bold: true }
  for (const column of options.columns) {
    explanation.addRow({
      key: column.key,
      label: column.label[options.language],
      required: column.isRequired ? texts.yes : texts.no,
      description: column.description[options.language],
      example: column.example,
    })
  }
  explanation.addRow({})
  explanation.addRow({ key: texts.intro(options.templateName) })
  const buffer = await workbook.xlsx.writeBuffer()
  return Buffer.from(buffer as ArrayBuffer)
}

/** Bounds of a filled file's inside, checked from the zip directory before anything is parsed. */
const workbookZipLimits = {
  maxEntryCount: 200,
  // 5,000 rows of ~40 filled cells stay well below this; a bigger sheet is refused unparsed
  maxEntryUncompressedSizeBytes: 32 * 1024 * 1024,
  maxTotalUncompressedSizeBytes: 48 * 1024 * 1024,
  maxCompressionRatio: 250,
}

/** What a valid filled file holds. */
export interface PoiBatchContent {
  rowCount: number
  columns: string[]
}

/** One filled row of a valid file: its sheet row number and each column's trimmed text. */
export interface PoiBatchRow {
  row: number
  values: Record<string, string>
}

/** Options of the readers. */
export interface PoiBatchReadOptions {
  /** Keeps the rows (the POI batch add); without it nothing of the rows is kept. */
  keepRows?: boolean
}

/** Most row errors one refusal lists (the count says how many there were). */
const maxReportedErrors = 100

/**
 * Checks a sheet fed to it row by row: row 1 must hold exactly the expected keys, no cell may
 * hold a formula, there must be 1 to {@link poiBatchMaxRows} rows, and every cell must fit its
 * column. `finish` throws one AppError listing the bad cells (row, column, reason).
 */
function createSheetChecker(columns: readonly PoiBatchColumn[], options: PoiBatchReadOptions) {
  const expected = new Map(columns.map((column) => [column.key, column]))
  const errors: PoiBatchRowError[] = []
  const rows: PoiBatchRow[] = []
  let errorCount = 0
  const addError = (
    row: number,
    column: string,
    id: MessageId,
    params: Record<string, MessageParam> = {},
  ) => {
    errorCount++
    if (errors.length >= maxReportedErrors) return
    errors.push({
      row,
      column,
      field: `${row}:${column}`,
      message: formatServerMessage(id, params),
      messageId: id,
      params,
    })
  }
  let header: string[] | undefined
  let rowCount = 0
  return {
    /** Takes one row; answers false once the row limit is passed (stop reading). */
    row(rowNumber: number, cells: CellText[]): boolean {
      if (header === undefined) {
        if (rowNumber !== 1) throw wrongColumns(columns, [])
        header = cells.map((cell) =>
          cell.kind === 'value' ? cell.text.replace(/^\uFEFF/, '').trim() : '',
        )
        while (header.length > 0 && header[header.length - 1] === '') header.pop()
        checkHeader(header, columns)
        return true
      }
      if (cells.every((cell) => cell.kind === 'value' && cell.text.trim() === '')) return true
      rowCount++
      if (rowCount > poiBatchMaxRows) return false
      const values: Record<string, string> = {}
      header.forEach((key, index) => {
        const column = expected.get(key)!
        const cell = cells[index] ?? { kind: 'value' as const, text: '' }
        checkCell(rowNumber, column, cell, addError)
        values[key] = cell.kind === 'value' ? cell.text.trim() : ''
      })
      if (options.keepRows) rows.push({ row: rowNumber, values })
      return true
    },
    finish(isTooMany: boolean): PoiBatchContent & { rows?: PoiBatchRow[] } {
      if (isTooMany) {
        throw new AppError('tooLarge', 'poiBatch.tooManyRows', { max: poiBatchMaxRows })
      }
      if (header === undefined) throw wrongColumns(columns, [])
      if (rowCount === 0) throw new AppError('validation', 'poiBatch.noRows')
      if (errorCount > 0) {
        throw new AppError(
          'validation',
          'poiBatch.rowErrors',
          { count: errorCount },
          { details: errors },
        )
      }
      return options.keepRows ? { rowCount, columns: header, rows } : { rowCount, columns: header }
    },
  }
}

/**
 * Validates a filled batch-POI file against the columns of its template: the bytes must be an
 * XLSX (a zip whose directory passes the archive checks: sizes, entry count, zip-bomb ratio),
 * and its first sheet must pass the sheet checks (keys in row 1, no formulas, 1 to
 * {@link poiBatchMaxRows} rows, every cell fitting its column). The sheet is read as a stream
 * and reading stops at the row limit, so memory stays bounded whatever the file claims. Throws
 * one AppError listing the bad cells (row, column, reason) when anything is wrong. With
 * `keepRows` the valid rows come back too (the POI batch add creates POIs from them).
 */
export async function validatePoiBatchFile(
  bytes: Uint8Array,
  columns: readonly PoiBatchColumn[],
  options: PoiBatchReadOptions = {},
): Promise<PoiBatchContent & { rows?: PoiBatchRow[] }> {
  try {
    await readArchiveDirectory(toArchiveSource(bytes), { limits: workbookZipLimits })
  } catch (error) {
    if (!isZipError(error)) throw error
    if (error.code === 'archive.notZip' || error.code === 'archive.truncated') {
      throw new AppError('unsupportedFile', 'poiBatch.notXlsx')
    }
    const isSize = ['archive.tooLarge', 'archive.entryTooLarge', 'archive.tooManyEntries'].includes(
      error.code,
    )
    throw new AppError(
      isSize ? 'tooLarge' : 'unsupportedFile',
      'poiBatch.unsafeFile',
      {},
      { details: [{ reason: error.code }], englishText: error.message },
    )
  }

  const checker = createSheetChecker(columns, options)
  let isTooMany = false
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  })
  try {
    sheets: for await (const worksheet of reader) {
      for await (const item of worksheet) {
        // exceljs yields rows one by one or in arrays, depending on the version
        const rows = (Array.isArray(item) ? item : [item]) as ExcelJS.Row[]
        for (const row of rows) {
          if (!checker.row(row.number, cellTexts(row))) {
            isTooMany = true
            break sheets
          }
        }
      }
      // only the first sheet holds POIs; the explanation sheet is not read
      break
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError(
      'unsupportedFile',
      'poiBatch.notXlsx',
      {},
      {
        englishText: `The file could not be read as an Excel workbook: ${(error as Error).message}`,
      },
    )
  }
  return checker.finish(isTooMany)
}

/**
 * The same checks for a CSV with the file's header keys in its first line (UTF-8, a byte-order
 * mark allowed, comma-separated, quotes as Excel writes them). Cells are taken as text, never
 * converted (a code like 007 stays 007).
 */
export async function validatePoiBatchCsv(
  bytes: Uint8Array,
  columns: readonly PoiBatchColumn[],
  options: PoiBatchReadOptions = {},
): Promise<PoiBatchContent & { rows?: PoiBatchRow[] }> {
  const text = Buffer.from(bytes).toString('utf8')
  if (text.includes('\u0000') || text.includes('\uFFFD')) {
    throw new AppError('unsupportedFile', 'poiBatch.notCsv')
  }
  const workbook = new ExcelJS.Workbook()
  let worksheet: ExcelJS.Worksheet
  try {
    worksheet = await workbook.csv.read(Readable.from([text.replace(/^\uFEFF/, '')]), {
      map: (value: unknown) => value,
      parserOptions: { maxRows: poiBatchMaxRows + 2 },
    })
  } catch {
    throw new AppError('validation', 'poiBatch.csvQuote')
  }
  const checker = createSheetChecker(columns, options)
  let isTooMany = false
  for (let rowNumber = 1; rowNumber <= worksheet.rowCount; rowNumber++) {
    if (!checker.row(rowNumber, cellTexts(worksheet.getRow(rowNumber)))) {
      isTooMany = true
      break
    }
  }
  return checker.finish(isTooMany)
}

type CellText = { kind: 'value'; text: string } | { kind: 'formula' } | { kind: 'other' }

/** The cells of a row as text, formulas and other non-values marked (1-based → 0-based). */
function cellTexts(row: ExcelJS.Row): CellText[] {
  const values = (row.values as unknown[]) ?? []
  const cells: CellText[] = []
  for (let index = 1; index < values.length; index++) {
    cells.push(cellText(values[index]))
  }
  return cells
}

function cellText(value: unknown): CellText {
  if (value === null || value === undefined) return { kind: 'value', text: '' }
  if (typeof value === 'string') return { kind: 'value', text: value }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return { kind: 'value', text: String(value) }
  }
  if (value instanceof Date) return { kind: 'value', text: value.toISOString() }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>
    if ('formula' in record || 'sharedFormula' in record) return { kind: 'formula' }
    if (Array.isArray(record.richText)) {
      return {
        kind: 'value',
        text: (record.richText as Array<{ text?: unknown }>)
          .map((part) => String(part.text ?? ''))
          .join(''),
      }
    }
    if (typeof record.text === 'string') return { kind: 'value', text: record.text }
  }
  return { kind: 'other' }
}

function wrongColumns(columns: readonly PoiBatchColumn[], found: readonly string[]): AppError {
  const expectedKeys = columns.map((column) => column.key)
  const missing = expectedKeys.filter((key) => !found.includes(key))
  const unknown = found.filter((key) => !expectedKeys.includes(key))
  return new AppError(
    'validation',
    'poiBatch.wrongColumns',
    { missing: missing.join(', ') || '-', unknown: unknown.join(', ') || '-' },
    { details: { expected: expectedKeys, found, missing, unknown } },
  )
}

/** Row 1 must name every expected column once and nothing else (order is free). */
function checkHeader(header: readonly string[], columns: readonly PoiBatchColumn[]): void {
  const keys = new Set(columns.map((column) => column.key))
  const isDuplicated = new Set(header).size !== header.length
  const isSame =
    !isDuplicated && header.length === keys.size && header.every((key) => keys.has(key))
  if (!isSame) throw wrongColumns(columns, header)
}

function checkCell(
  row: number,
  column: PoiBatchColumn,
  cell: CellText,
  addError: (
    row: number,
    column: string,
    id: MessageId,
    params?: Record<string, MessageParam>,
  ) => void,
): void {
  if (cell.kind === 'formula') {
    addError(row, column.key, 'poiBatch.formula')
    return
  }
  if (cell.kind === 'other') {
    addError(row, column.key, 'poiBatch.notAValue')
    return
  }
  const text = cell.text.trim()
  if (text === '') {
    if (column.isRequired) addError(row, column.key, 'validation.required')
    return
  }
  if (column.kind.type === 'text') {
    if (text.length > column.kind.maxLength) {
      addError(row, column.key, 'validation.tooLong', { maximum: column.kind.maxLength })
    }
    return
  }
  const value = Number(text)
  if (!Number.isFinite(value)) {
    addError(row, column.key, 'validation.expectedNumber')
    return
  }
  if (column.kind.minimum !== undefined && value < column.kind.minimum) {
    addError(row, column.key, 'validation.tooSmall', { minimum: column.kind.minimum })
  }
  if (column.kind.maximum !== undefined && value > column.kind.maximum) {
    addError(row, column.key, 'validation.tooBig', { maximum: column.kind.maximum })
  }
}
