import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelDetail } from '../../../contract/model-config'
import { measureProjectUsage } from '../../modules/orders/metering'
import { pngClaiming } from '../../testing/image-bombs'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { uploadFixtureModels } from './building-test-kit'
import {
  createProject,
  type MultipartPart,
  postMultipart,
  sampleFiles,
  signInNewUser,
  storedFiles,
} from './project-test-kit'

/** A small but real PDF. */
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
)
const text = (value: string) => new TextEncoder().encode(value)
/** A Word file as far as its packaging goes: content types and the main part. */
const docx = Buffer.from(
  zipSync({
    '[Content_Types].xml': text('<?xml version="1.0"?><Types/>'),
    'word/document.xml': text('<?xml version="1.0"?><w:document/>'),
  }),
)
/** An OpenDocument text: its `mimetype` first, stored. */
const odt = Buffer.from(
  zipSync({
    mimetype: [text('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': text('<?xml version="1.0"?><office:document-content/>'),
  }),
)

/**
 * Sets the uncompressed size an archive declares for one entry (central directory and local
 * header), leaving its data as it is: an entry that lies about what it expands to.
 */
function withDeclaredSize(zip: Uint8Array, name: string, sizeBytes: number): Buffer {
  const bytes = Buffer.from(zip)
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const count = bytes.readUInt16LE(end + 10)
  let cursor = bytes.readUInt32LE(end + 16)
  for (let index = 0; index < count; index++) {
    const nameLength = bytes.readUInt16LE(cursor + 28)
    const entryName = bytes.subarray(cursor + 46, cursor + 46 + nameLength).toString()
    if (entryName === name) {
      bytes.writeUInt32LE(sizeBytes, cursor + 24)
      bytes.writeUInt32LE(sizeBytes, bytes.readUInt32LE(cursor + 42) + 22)
    }
    cursor += 46 + nameLength + bytes.readUInt16LE(cursor + 30) + bytes.readUInt16LE(cursor + 32)
  }
  return bytes
}

describe('model details documents (modelDetail/uploadDocument, deleteDocument, download)', () => {
  let testApp: TestApp
  let editor: string
  let neighbour: string
  let guest: string
  let projectId: string
  let modelIds: string[]

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    neighbour = await signInNewUser(testApp.app, 'documents-neighbour')
    guest = await signInNewUser(testApp.app, 'documents-guest', 'guest')
    projectId = (await createProject(testApp.app, editor, { kind: 'building', name: 'Docs' })).id
    modelIds = await uploadFixtureModels(testApp.app, editor, projectId, [
      { fixture: 'duck', fileName: 'pump.sbm' },
      { fixture: 'twoStoreys', fileName: 'floors.sbm' },
    ])
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const call = <Datum>(url: string, form: Record<string, string>, token = editor) =>
    callApi<Datum>(testApp.app, { url: `/web/${url}`, token, form })

  /** The details of a model, made if it has none. */
  async function detailOf(modelId: string): Promise<ModelDetail> {
    const found = await call<ModelDetail | null>('findModelInfoOne', { model_id: modelId })
    if (found.envelope.datum) return found.envelope.datum
    const added = await call<ModelDetail>('addModelDetail', { model_id: modelId, company: 'ABB' })
    expect(added.envelope.code).toBe('0')
    return added.envelope.datum
  }

  const attach = (
    detailId: string,
    files: Array<{ fileName: string; value: Buffer }>,
    token = editor,
  ) =>
    postMultipart<ModelDetail>(testApp.app, '/web/modelDetail/uploadDocument', token, [
      { name: 'detail_id', value: detailId },
      ...files.map((file): MultipartPart => ({ name: 'file', ...file })),
    ])

  const download = (url: string, token?: string) =>
    testApp.app.inject({ method: 'GET', url, headers: token ? { token } : {} })

  const withoutGrant = (url: string) => url.split('?')[0]!

  it('attaches a PDF, an image and office files, answers them with the details, downloads and deletes them', async () => {
    const detail = await detailOf(modelIds[0]!)
    expect(detail.documents).toEqual([])
    const { png } = await sampleFiles()
    const until = '9999-12-31T23:59:59.999Z'
    const usageBefore = await measureProjectUsage(testApp.app.deps.database.db, projectId, {
      since: null,
      until,
    })

    const answer = await attach(detail.id, [
      { fileName: 'manual.pdf', value: pdf },
      { fileName: '명판 사진.png', value: png },
      { fileName: 'Datasheet.docx', value: docx },
      { fileName: 'notes.odt', value: odt },
    ])
    expect(answer.envelope.code).toBe('0')
    // those of one upload by name (code-point order)
    const documents = answer.envelope.datum.documents
    expect(documents.map((document) => [document.file_name, document.content_type])).toEqual([
      ['Datasheet.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['manual.pdf', 'application/pdf'],
      ['notes.odt', 'application/vnd.oasis.opendocument.text'],
      ['명판 사진.png', 'image/png'],
    ])
    expect(documents.map((document) => document.size_bytes)).toEqual([
      docx.byteLength,
      pdf.byteLength,
      odt.byteLength,
      png.byteLength,
    ])
    const named = (name: string) => documents.find((document) => document.file_name === name)!
    const manualPdf = named('manual.pdf')

    // listed with the details wherever they are answered
    const one = await call<ModelDetail>('findModelInfoOne', { model_id: modelIds[0]! })
    expect(one.envelope.datum.documents.map((document) => document.id)).toEqual(
      documents.map((document) => document.id),
    )
    const groups = await call<Array<{ models: ModelDetail[] }>>('findCompanyAndModel', {
      project_id: projectId,
    })
    expect(groups.envelope.datum[0]!.models[0]!.documents).toHaveLength(4)

    // uploaded bytes are metered as upload traffic
    const usageAfter = await measureProjectUsage(testApp.app.deps.database.db, projectId, {
      since: null,
      until,
    })
    expect(usageAfter.uploadBytes - usageBefore.uploadBytes).toBe(
      pdf.byteLength + png.byteLength + docx.byteLength + odt.byteLength,
    )

    // a plain link downloads each, to be saved under its own name, never run on this origin
    const manual = await download(manualPdf.url)
    expect(manual.statusCode).toBe(200)
    expect(manual.headers['content-type']).toBe('application/pdf')
    expect(Buffer.compare(manual.rawPayload, pdf)).toBe(0)
    expect(manual.headers['content-disposition']).toContain('attachment; filename="manual.pdf"')
    expect(manual.headers['content-security-policy']).toBe('sandbox')
    const photo = await download(named('명판 사진.png').url)
    expect(photo.statusCode).toBe(200)
    expect(Buffer.compare(photo.rawPayload, png)).toBe(0)
    expect(photo.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('명판 사진.png')}`,
    )
    // without the grant, the editor's own token opens it too
    expect((await download(withoutGrant(named('Datasheet.docx').url), editor)).statusCode).toBe(200)

    // delete one: the rest stay, its bytes leave the store
    const sha256OfPdf = (
      await testApp.app.deps.database.db
        .selectFrom('model_documents')
        .select('sha256')
        .where('id', '=', manualPdf.id)
        .executeTakeFirstOrThrow()
    ).sha256
    const removed = await call<ModelDetail>('modelDetail/deleteDocument', { id: manualPdf.id })
    expect(removed.envelope.code).toBe('0')
    expect(removed.envelope.datum.documents.map((document) => document.file_name)).toEqual([
      'Datasheet.docx',
      'notes.odt',
      '명판 사진.png',
    ])
    expect(await storedFiles(testApp.config.filesDir)).not.toContain(sha256OfPdf)
    expect((await download(manualPdf.url)).statusCode).toBe(404)
    const again = await call('modelDetail/deleteDocument', { id: manualPdf.id })
    expect(again.statusCode).toBe(404)
    expect(again.envelope.messageId).toBe('modelDocument.notFound')
  })

  it('refuses hostile names, content that is not what its name says and zip bombs, saving nothing', async () => {
    const detail = await detailOf(modelIds[1]!)
    const { png, jpeg } = await sampleFiles()
    const zeros = new Uint8Array(8 * 1024 * 1024)
    const bomb = Buffer.from(
      zipSync(
        {
          '[Content_Types].xml': text('<Types/>'),
          'word/document.xml': zeros,
        },
        { level: 9 },
      ),
    )
    // small enough to skip the ratio check as declared, but it inflates to 8 MiB
    const liar = withDeclaredSize(bomb, 'word/document.xml', 1000)
    const storeBefore = await storedFiles(testApp.config.filesDir)
    const cases: Array<[string, Buffer, number, string, Record<string, unknown>]> = [
      ['manual\u202Efdp.exe.pdf', pdf, 400, 'modelDocument.badName', {}],
      ['CON.pdf', pdf, 400, 'modelDocument.badName', { name: 'CON.pdf' }],
      ['.hidden.pdf', pdf, 400, 'modelDocument.badName', { name: '.hidden.pdf' }],
      ['what?.pdf', pdf, 400, 'modelDocument.badName', { name: 'what?.pdf' }],
      [`${'long'.repeat(40)}.pdf`, pdf, 400, 'modelDocument.badName', { max: 150 }],
      ['setup.exe', pdf, 415, 'modelDocument.typeNotAccepted', { name: 'setup.exe' }],
      [
        'report.pdf',
        png,
        415,
        'modelDocument.contentMismatch',
        { name: 'report.pdf', kind: 'PDF' },
      ],
      ['photo.png', jpeg, 415, 'modelDocument.contentMismatch', { kind: 'PNG' }],
      ['old.doc', pdf, 415, 'modelDocument.contentMismatch', { kind: 'DOC' }],
      ['sheet.xlsx', docx, 415, 'modelDocument.contentMismatch', { kind: 'XLSX' }],
      ['notes.ods', odt, 415, 'modelDocument.contentMismatch', { kind: 'ODS' }],
      ['huge.png', pngClaiming(60_000, 60_000), 413, 'modelDocument.imageTooLarge', {}],
      ['bomb.docx', bomb, 415, 'modelDocument.archiveRefused', { name: 'bomb.docx' }],
      ['liar.docx', liar, 415, 'modelDocument.archiveRefused', { name: 'liar.docx' }],
    ]
    for (const [fileName, value, status, messageId, params] of cases) {
      // a good file beside the bad one is not kept either: all or nothing
      const answer = await attach(detail.id, [
        { fileName: 'fine.pdf', value: pdf },
        { fileName, value },
      ])
      expect(answer.statusCode, fileName).toBe(status)
      expect(answer.envelope.messageId, fileName).toBe(messageId)
      expect(answer.envelope.params, fileName).toMatchObject(params)
    }
    // the direction character is not repeated back
    const hostile = await attach(detail.id, [{ fileName: 'manual\u202Efdp.exe.pdf', value: pdf }])
    expect(hostile.envelope.params).toMatchObject({ name: 'manualfdp.exe.pdf' })

    // the same name twice, in one upload or after an earlier one
    const twice = await attach(detail.id, [
      { fileName: 'Spec.pdf', value: pdf },
      { fileName: 'spec.PDF', value: pdf },
    ])
    expect(twice.statusCode).toBe(409)
    expect(twice.envelope.messageId).toBe('modelDocument.nameTaken')
    expect(
      (await call<ModelDetail>('findModelInfoOne', { model_id: modelIds[1]! })).envelope.datum
        .documents,
    ).toEqual([])
    expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)

    expect((await attach(detail.id, [{ fileName: 'spec.pdf', value: pdf }])).envelope.code).toBe(
      '0',
    )
    const later = await attach(detail.id, [{ fileName: 'SPEC.pdf', value: pdf }])
    expect(later.statusCode).toBe(409)
    expect(later.envelope.params).toEqual({ name: 'SPEC.pdf' })
    // an upload without a file, or for details that do not exist
    expect((await attach(detail.id, [])).statusCode).toBe(400)
    const nowhere = await attach('00000000-0000-4000-8000-000000000000', [
      { fileName: 'a.pdf', value: pdf },
    ])
    expect(nowhere.statusCode).toBe(404)
  })

  it("keeps another user's documents out of reach, and a link opens only its own file", async () => {
    const detail = await detailOf(modelIds[0]!)
    const attached = await attach(detail.id, [
      { fileName: 'private.pdf', value: pdf },
      { fileName: 'private-notes.odt', value: odt },
    ])
    const named = (name: string) =>
      attached.envelope.datum.documents.find((candidate) => candidate.file_name === name)!
    const document = named('private.pdf')
    const other = named('private-notes.odt')

    // another user: the details are not found, whatever the call
    expect(
      (await attach(detail.id, [{ fileName: 'theirs.pdf', value: pdf }], neighbour)).statusCode,
    ).toBe(404)
    expect(
      (await call('modelDetail/deleteDocument', { id: document.id }, neighbour)).statusCode,
    ).toBe(404)
    expect((await download(withoutGrant(document.url), neighbour)).statusCode).toBe(404)
    // a guest is refused the calls, and nobody without a session may make them
    expect((await attach(detail.id, [{ fileName: 'g.pdf', value: pdf }], guest)).statusCode).toBe(
      403,
    )
    expect((await call('modelDetail/deleteDocument', { id: document.id }, guest)).statusCode).toBe(
      403,
    )
    const signedOut = await callApi(testApp.app, {
      url: '/web/modelDetail/deleteDocument',
      form: { id: document.id },
    })
    expect(signedOut.statusCode).toBe(401)
    expect(signedOut.envelope.code).toBe('2011')
    expect((await download(withoutGrant(document.url))).statusCode).toBe(401)

    // a grant opens its own document only, under its own name
    const grant = new URL(document.url, 'http://x').searchParams.get('grant')!
    const otherGrant = new URL(other.url, 'http://x').searchParams.get('grant')!
    expect((await download(`${withoutGrant(document.url)}?grant=${otherGrant}`)).statusCode).toBe(
      403,
    )
    expect(
      (await download(`${withoutGrant(document.url)}?grant=${grant.slice(0, -2)}xx`)).statusCode,
    ).toBe(403)
    expect((await download(document.url)).statusCode).toBe(200)
    expect(
      (await download(`/web/modelDetail/documents/not-an-id?grant=${encodeURIComponent(grant)}`))
        .statusCode,
    ).toBe(404)
  })

  it('drops the documents and their bytes with the details, and with the project', async () => {
    const detail = await detailOf(modelIds[1]!)
    const own = Buffer.concat([pdf, Buffer.from(`% ${detail.id}\n`)])
    const attached = await attach(detail.id, [{ fileName: 'gone-with-details.pdf', value: own }])
    expect(attached.envelope.code).toBe('0')
    const sha256Of = async (projectOf: string) =>
      (
        await testApp.app.deps.database.db
          .selectFrom('model_documents')
          .select('sha256')
          .where('project_id', '=', projectOf)
          .execute()
      ).map((row) => row.sha256)
    const ownDocument = attached.envelope.datum.documents.find(
      (document) => document.file_name === 'gone-with-details.pdf',
    )!
    const { sha256: ownSha256 } = await testApp.app.deps.database.db
      .selectFrom('model_documents')
      .select('sha256')
      .where('id', '=', ownDocument.id)
      .executeTakeFirstOrThrow()
    expect(await storedFiles(testApp.config.filesDir)).toContain(ownSha256)
    expect((await call('deleteModelDetail', { id: detail.id })).envelope.code).toBe('0')
    const rows = await testApp.app.deps.database.db
      .selectFrom('model_documents')
      .select('id')
      .where('detail_id', '=', detail.id)
      .execute()
    expect(rows).toEqual([])
    expect(await storedFiles(testApp.config.filesDir)).not.toContain(ownSha256)
    expect((await download(ownDocument.url)).statusCode).toBe(404)

    // a project's delete takes its details' documents along, and their bytes once committed
    const gone = (await createProject(testApp.app, editor, { kind: 'building', name: 'Gone' })).id
    const [fanModelId] = await uploadFixtureModels(testApp.app, editor, gone, [
      { fixture: 'duck', fileName: 'fan.sbm' },
    ])
    const fan = await detailOf(fanModelId!)
    const unique = Buffer.concat([pdf, Buffer.from(`% ${gone}\n`)])
    expect((await attach(fan.id, [{ fileName: 'fan.pdf', value: unique }])).envelope.code).toBe('0')
    const [fanSha256] = await sha256Of(gone)
    expect(await storedFiles(testApp.config.filesDir)).toContain(fanSha256)
    expect((await call('project/deleteProject', { id: gone })).envelope.code).toBe('0')
    expect(await sha256Of(gone)).toEqual([])
    await expect
      .poll(() => storedFiles(testApp.config.filesDir), { timeout: 30_000 })
      .not.toContain(fanSha256)
  })
})
