import {
  modelDocumentExtensions,
  modelDocumentMaxBytes,
  modelDocumentNameMaxLength,
} from '../../../contract/model-config'
import type { ArchiveLimits } from '../../../workers/unzip/archive-limits'
import { toArchiveSource } from '../../../workers/unzip/archive-source'
import { findExtractedFile } from '../../../workers/unzip/extracted-archive'
import { ZipError } from '../../../workers/unzip/zip-errors'
import { extractEntries } from '../../../workers/unzip/zip-extractor'
import { type ArchiveEntry, readArchiveDirectory } from '../../../workers/unzip/zip-reader'
import { AppError, fieldError } from '../../http/app-error'
import { extensionOf, findSymlinkEntry } from '../building/model-files'
import { pixelBudgetProblem, readImageHeader, uploadedImageBudget } from '../images/image-header'

/**
 * What a model's details accept as documents (issue 21 item 5): a checked file name, and content
 * that is what its extension says. Office files are zip archives (OOXML, OpenDocument): their
 * directory is read before anything is inflated, and every part is then inflated once, in
 * bounded batches whose output is dropped, so sizes an archive lies about are caught too.
 */

type DocumentExtension = (typeof modelDocumentExtensions)[number]

/** The type each accepted extension is served as. */
const contentTypes: Record<DocumentExtension, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
}

/** The folder an OOXML file keeps its main part in. */
const ooxmlMainFolders: Partial<Record<DocumentExtension, string>> = {
  docx: 'word/',
  xlsx: 'xl/',
  pptx: 'ppt/',
}

const mebibyte = 1024 * 1024

/**
 * Limits of an office file's packed parts. Real documents' XML packs 5–20-fold and their images
 * hardly at all; a part that would expand more than 100-fold is refused as a zip bomb.
 */
const officeArchiveLimits: Partial<ArchiveLimits> = {
  maxEntryCount: 5_000,
  maxEntryUncompressedSizeBytes: 4 * modelDocumentMaxBytes,
  maxTotalUncompressedSizeBytes: 8 * modelDocumentMaxBytes,
  maxCompressionRatio: 100,
  compressionRatioCheckMinimumBytes: mebibyte,
}

/** Declared bytes inflated per batch while checking an office file (the memory it costs). */
const inflateBatchBytes = 32 * mebibyte

/** Characters a document name may not hold: folders, Windows' reserved ones, controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const forbiddenNameCharacters = /[/\\:*?"<>|\u0000-\u001f\u007f]/
/** Characters that reorder or hide text (a name shown as `txt.exe` that is `exe.txt`). */
const directionCharacters = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/
/** Device names Windows will not save a file under, whatever the extension. */
const reservedBaseNames = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i

/** A checked document: its name and what it is served as. */
export interface CheckedDocument {
  fileName: string
  contentType: string
}

/** The name as it may be shown in a message: without the characters that hide or reorder text. */
function shownName(name: string): string {
  return Array.from(name)
    .filter(
      (character) =>
        character >= ' ' && character !== '\u007f' && !directionCharacters.test(character),
    )
    .join('')
    .slice(0, modelDocumentNameMaxLength)
}

/**
 * Refuses a hostile or unusable file name (with folders, `..`, hidden, reserved, control or
 * direction characters, too long) rather than quietly changing it: the name is what the
 * document downloads as. Answers the name, trimmed.
 */
export function checkDocumentName(clientName: string): string {
  const name = clientName.trim()
  const isHostile =
    name === '' ||
    name.length > modelDocumentNameMaxLength ||
    forbiddenNameCharacters.test(name) ||
    directionCharacters.test(name) ||
    name.startsWith('.') ||
    name.endsWith('.') ||
    reservedBaseNames.test(name)
  if (isHostile) {
    throw fieldError('validation', 'file', 'modelDocument.badName', {
      name: shownName(name),
      max: modelDocumentNameMaxLength,
    })
  }
  return name
}

/** The accepted extension of a checked name, or a refusal naming the file. */
function extensionOfDocument(name: string): DocumentExtension {
  const extension = extensionOf(name)
  if ((modelDocumentExtensions as readonly string[]).includes(extension)) {
    return extension as DocumentExtension
  }
  throw new AppError('unsupportedFile', 'modelDocument.typeNotAccepted', { name })
}

/**
 * Checks that a document's content is what its name says and answers how it is served: a PDF
 * starts with `%PDF-`, an image's header is of its format and within the upload pixel budget,
 * a DOC/XLS/PPT is an OLE compound file, and an office zip has its parts and inflates sanely.
 */
export async function checkDocument(
  clientName: string,
  bytes: Uint8Array,
): Promise<CheckedDocument> {
  const fileName = checkDocumentName(clientName)
  const extension = extensionOfDocument(fileName)
  const mismatch = () =>
    new AppError('unsupportedFile', 'modelDocument.contentMismatch', {
      name: fileName,
      kind: extension.toUpperCase(),
    })
  switch (extension) {
    case 'pdf':
      if (!startsWith(bytes, '%PDF-', 1024)) throw mismatch()
      break
    case 'png':
    case 'jpg':
    case 'jpeg':
    case 'gif':
    case 'webp':
      checkImage(fileName, extension, bytes, mismatch)
      break
    case 'doc':
    case 'xls':
    case 'ppt':
      if (!isCompoundFile(bytes)) throw mismatch()
      break
    default:
      await checkOfficeArchive(fileName, extension, bytes, mismatch)
  }
  return { fileName, contentType: contentTypes[extension] }
}

/** Whether `text` occurs within the first `within` bytes (PDF allows a little junk first). */
function startsWith(bytes: Uint8Array, text: string, within: number): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, within))
  return head.indexOf(text, 0, 'latin1') !== -1
}

const compoundFileSignature = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

/** Whether the bytes start as an OLE compound file (the container of DOC, XLS and PPT). */
function isCompoundFile(bytes: Uint8Array): boolean {
  return compoundFileSignature.every((value, index) => bytes[index] === value)
}

function checkImage(
  name: string,
  extension: DocumentExtension,
  bytes: Uint8Array,
  mismatch: () => AppError,
): void {
  const header = readImageHeader(bytes)
  const expected = extension === 'jpg' ? 'jpeg' : extension
  if (!header || header.format !== expected) throw mismatch()
  if (pixelBudgetProblem(header, uploadedImageBudget) === null) return
  throw new AppError('tooLarge', 'modelDocument.imageTooLarge', {
    name,
    width: header.widthPixels,
    height: header.heightPixels,
    maxSide: Math.floor(Math.sqrt(uploadedImageBudget.maxPixels)),
  })
}

/**
 * An OOXML or OpenDocument file: a zip with no links, its declared sizes within the limits,
 * the parts its kind must have (`[Content_Types].xml` and the main folder; or a `mimetype`
 * naming the kind), and every part inflating to exactly what it declares.
 */
async function checkOfficeArchive(
  name: string,
  extension: DocumentExtension,
  bytes: Uint8Array,
  mismatch: () => AppError,
): Promise<void> {
  const refused = (reason: string) =>
    new AppError(
      'unsupportedFile',
      'modelDocument.archiveRefused',
      { name },
      { details: [{ file: name, reason }] },
    )
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  if (!isZip) throw mismatch()
  if (findSymlinkEntry(bytes) !== undefined) throw refused('archive.unsafeEntryName')
  try {
    const source = toArchiveSource(bytes)
    const listing = await readArchiveDirectory(source, { limits: officeArchiveLimits })
    const names = new Set(listing.entries.map((entry) => entry.name))
    const mainFolder = ooxmlMainFolders[extension]
    if (mainFolder !== undefined) {
      const hasParts =
        names.has('[Content_Types].xml') &&
        listing.entries.some((entry) => entry.name.startsWith(mainFolder))
      if (!hasParts) throw mismatch()
    } else {
      if (!names.has('mimetype')) throw mismatch()
      const extracted = await extractEntries(source, listing, {
        names: ['mimetype'],
        limits: officeArchiveLimits,
      })
      const declared = new TextDecoder().decode(findExtractedFile(extracted, 'mimetype'))
      if (declared.trim() !== contentTypes[extension]) throw mismatch()
    }
    for (const batch of inflateBatches(listing.entries)) {
      await extractEntries(source, listing, { names: batch, limits: officeArchiveLimits })
    }
  } catch (error) {
    if (error instanceof ZipError) throw refused(error.code)
    throw error
  }
}

/** The file entries in groups of at most {@link inflateBatchBytes} declared bytes each. */
function inflateBatches(entries: readonly ArchiveEntry[]): string[][] {
  const batches: string[][] = []
  let current: string[] = []
  let currentBytes = 0
  for (const entry of entries) {
    if (entry.isDirectory) continue
    if (current.length > 0 && currentBytes + entry.uncompressedSizeBytes > inflateBatchBytes) {
      batches.push(current)
      current = []
      currentBytes = 0
    }
    current.push(entry.name)
    currentBytes += entry.uncompressedSizeBytes
  }
  if (current.length > 0) batches.push(current)
  return batches
}
