import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { ModelDetail, ModelDocument } from '../../../api/model-details'
import { activateLanguage } from '../../../i18n/i18n'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { ModelDetailsSection } from './ModelDetailsSection'
import { ModelsByCompanyPanel } from './ModelsByCompanyPanel'

/** A model's details with nothing filled in. */
const emptyDetail: ModelDetail = {
  id: 'detail-1',
  model_id: 'pump',
  project_id: 'project-1',
  model_name: 'Pump',
  company: '',
  product: '',
  serial_number: '',
  install_date: '',
  description: '',
  documents: [],
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: '2026-11-27T00:00:00.000Z',
}

/** A document as the server lists it. */
function documentOf(id: string, fileName: string, sizeBytes: number): ModelDocument {
  return {
    id,
    detail_id: 'detail-1',
    file_name: fileName,
    content_type: 'application/pdf',
    size_bytes: sizeBytes,
    url: `/web/modelDetail/documents/${id}?grant=g-${id}`,
    created_at: '2026-11-27T00:00:00.000Z',
  }
}

/**
 * A server that keeps one model's details as the detail calls do (`findModelInfoOne`,
 * `addModelDetail`, `updateModelDetail`, `deleteModelDetail`, and the documents' upload and
 * delete) and records what each was sent.
 */
function stubDetailServer(initial: Partial<ModelDetail> | null = null) {
  let stored: ModelDetail | null = initial && { ...emptyDetail, ...initial }
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      if (init?.body instanceof FormData) {
        const files = init.body.getAll('file') as File[]
        calls.push({
          path,
          body: { detail_id: init.body.get('detail_id'), files: files.map((file) => file.name) },
        })
        stored = stored && {
          ...stored,
          documents: [
            ...stored.documents,
            ...files.map((file, index) => documentOf(`new-${index}`, file.name, file.size)),
          ],
        }
        return new Response(JSON.stringify({ code: '0', message: 'OK', datum: stored }), {
          headers: { 'content-type': 'application/json' },
        })
      }
      const sent = String(init?.body ?? '')
      const body = (
        sent.startsWith('{') ? JSON.parse(sent) : Object.fromEntries(new URLSearchParams(sent))
      ) as Record<string, unknown>
      calls.push({ path, body })
      if (path === '/web/addModelDetail' || path === '/web/updateModelDetail') {
        stored = { ...emptyDetail, ...stored, ...(body as Partial<ModelDetail>) }
      }
      if (path === '/web/modelDetail/deleteDocument' && stored) {
        stored = {
          ...stored,
          documents: stored.documents.filter((document) => document.id !== body.id),
        }
      }
      if (path === '/web/deleteModelDetail') stored = null
      const datum = path === '/web/deleteModelDetail' ? null : stored
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})
afterAll(() => activateLanguage('en'))

function renderSection() {
  return renderWithI18n(
    <UiRoot>
      <ModelDetailsSection modelId="pump" modelName="Pump" />
    </UiRoot>,
  )
}

describe('the picked model’s details (issue 21 item 5)', () => {
  it('shows the details a model has, and deletes them after asking', async () => {
    const calls = stubDetailServer({ company: 'Grundfos', serial_number: 'SN-001' })
    await activateLanguage('en')
    renderSection()
    expect((await screen.findByTestId('pick-detail-company')).textContent).toBe('Grundfos')
    expect(screen.getByTestId('pick-detail-serial').textContent).toBe('SN-001')
    // empty fields are not listed
    expect(screen.queryByTestId('pick-detail-product')).toBeNull()
    expect(calls[0]).toEqual({ path: '/web/findModelInfoOne', body: { model_id: 'pump' } })
    expect(screen.getByText('Edit details')).toBeTruthy()

    await userEvent.click(screen.getByText('Delete details'))
    const question = (await screen.findByText(/This cannot be undone/)).closest<HTMLElement>(
      '[role="alertdialog"]',
    )!
    await userEvent.click(within(question).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('This model has no details yet.')).toBeTruthy()
    expect(calls.at(-1)).toEqual({ path: '/web/deleteModelDetail', body: { id: 'detail-1' } })
    expect(screen.getByText('Add details')).toBeTruthy()
  })

  it('names the details in Korean', async () => {
    stubDetailServer({ company: 'Grundfos', install_date: '2024-05-01' })
    await activateLanguage('ko')
    renderSection()
    expect((await screen.findByTestId('pick-detail-installed')).textContent).toBe('2024-05-01')
    expect(screen.getByText('제조사')).toBeTruthy()
    expect(screen.getByText('설치일')).toBeTruthy()
    expect(screen.getByText('상세 정보 수정')).toBeTruthy()
  })
})

describe('documents attached to the details (issue 21 item 5)', () => {
  it('lists documents as links that download them, attaches new ones and deletes one', async () => {
    const calls = stubDetailServer({
      company: 'Grundfos',
      documents: [documentOf('doc-1', 'manual.pdf', 2048)],
    })
    await activateLanguage('en')
    renderSection()
    const list = await screen.findByTestId('model-documents')
    const link = within(list).getByRole('link', { name: 'manual.pdf' })
    expect(link.getAttribute('href')).toBe('/web/modelDetail/documents/doc-1?grant=g-doc-1')
    expect(link.getAttribute('download')).toBe('manual.pdf')
    expect(within(list).getByText('2.0 KB')).toBeTruthy()

    await userEvent.upload(screen.getByTestId('model-document-input'), [
      new File(['%PDF-1.4'], 'wiring.pdf', { type: 'application/pdf' }),
      new File([new Uint8Array(10)], 'plate.png', { type: 'image/png' }),
    ])
    expect(await within(list).findByRole('link', { name: 'plate.png' })).toBeTruthy()
    expect(calls.at(-1)).toEqual({
      path: '/web/modelDetail/uploadDocument',
      body: { detail_id: 'detail-1', files: ['wiring.pdf', 'plate.png'] },
    })

    await userEvent.click(screen.getByRole('button', { name: 'Delete manual.pdf' }))
    const question = (await screen.findByText(/This cannot be undone/)).closest<HTMLElement>(
      '[role="alertdialog"]',
    )!
    await userEvent.click(within(question).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(within(list).queryByRole('link', { name: 'manual.pdf' })).toBeNull())
    expect(calls.at(-1)).toEqual({ path: '/web/modelDetail/deleteDocument', body: { id: 'doc-1' } })
    expect(within(list).getByRole('link', { name: 'wiring.pdf' })).toBeTruthy()
  })

  it('says in Korean that documents need details first, and names the documents in Chinese', async () => {
    stubDetailServer(null)
    await activateLanguage('ko')
    const { unmount } = renderSection()
    expect(
      await screen.findByText('문서는 상세 정보에 첨부됩니다. 먼저 상세 정보를 추가하세요.'),
    ).toBeTruthy()
    expect(screen.queryByTestId('model-document-input')).toBeNull()
    unmount()

    stubDetailServer({ documents: [documentOf('doc-1', '说明书.pdf', 1024)] })
    await activateLanguage('zh')
    renderSection()
    expect(await screen.findByRole('link', { name: '说明书.pdf' })).toBeTruthy()
    expect(screen.getByText('文档')).toBeTruthy()
    expect(screen.getByRole('button', { name: '附加文档' })).toBeTruthy()
  })
})

describe('Model → Equipment: the models with details by manufacturer (findCompanyAndModel)', () => {
  it('lists each manufacturer’s models with product, serial and install date', async () => {
    await activateLanguage('en')
    const detail = (model_name: string, fields: Partial<ModelDetail>): ModelDetail => ({
      id: `detail-${model_name}`,
      model_id: model_name,
      project_id: 'project-1',
      model_name,
      company: '',
      product: '',
      serial_number: '',
      install_date: '',
      description: '',
      documents: [],
      created_at: '',
      updated_at: '',
      ...fields,
    })
    const asked: string[] = []
    renderWithI18n(
      <ModelsByCompanyPanel
        projectId="project-1"
        load={async (projectId) => {
          asked.push(projectId)
          return [
            {
              company: 'Grundfos',
              models: [
                detail('Pump', {
                  company: 'Grundfos',
                  product: 'CR 10',
                  install_date: '2024-05-01',
                  documents: [documentOf('doc-9', 'pump-manual.pdf', 4096)],
                }),
              ],
            },
            { company: '', models: [detail('Fan', { serial_number: 'F-7' })] },
          ]
        }}
      />,
    )
    const grundfos = await screen.findByRole('region', { name: 'Grundfos' })
    expect(within(grundfos).getByText('Pump')).toBeTruthy()
    expect(within(grundfos).getByText('CR 10 · 2024-05-01')).toBeTruthy()
    // the documents are links to download here too, without controls to change them
    const manual = within(grundfos).getByRole('link', { name: 'pump-manual.pdf' })
    expect(manual.getAttribute('href')).toContain('/web/modelDetail/documents/doc-9?grant=')
    expect(within(grundfos).queryByRole('button', { name: /Delete/ })).toBeNull()
    const unnamed = screen.getByRole('region', { name: 'No manufacturer' })
    expect(within(unnamed).getByText('F-7')).toBeTruthy()
    expect(asked).toEqual(['project-1'])
  })
})
