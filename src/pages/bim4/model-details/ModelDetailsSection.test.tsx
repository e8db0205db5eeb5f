import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { ModelDetail } from '../../../api/model-details'
import { activateLanguage } from '../../../i18n/i18n'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { ModelDetailsSection } from './ModelDetailsSection'
import { ModelsByCompanyPanel } from './ModelsByCompanyPanel'

/**
 * A server that keeps one model's details as the detail calls do (`findModelInfoOne`,
 * `addModelDetail`, `updateModelDetail`, `deleteModelDetail`) and records what each was sent.
 */
function stubDetailServer(initial: Partial<ModelDetail> | null = null) {
  let stored: ModelDetail | null = initial && {
    id: 'detail-1',
    model_id: 'pump',
    project_id: 'project-1',
    model_name: 'Pump',
    company: '',
    product: '',
    serial_number: '',
    install_date: '',
    description: '',
    created_at: '2026-11-27T00:00:00.000Z',
    updated_at: '2026-11-27T00:00:00.000Z',
    ...initial,
  }
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = String(init?.body ?? '')
      const body = (
        sent.startsWith('{') ? JSON.parse(sent) : Object.fromEntries(new URLSearchParams(sent))
      ) as Record<string, unknown>
      calls.push({ path, body })
      if (path === '/web/addModelDetail' || path === '/web/updateModelDetail') {
        stored = {
          id: 'detail-1',
          model_id: 'pump',
          project_id: 'project-1',
          model_name: 'Pump',
          company: '',
          product: '',
          serial_number: '',
          install_date: '',
          description: '',
          created_at: '2026-11-27T00:00:00.000Z',
          updated_at: '2026-11-27T00:00:00.000Z',
          ...stored,
          ...(body as Partial<ModelDetail>),
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
    const unnamed = screen.getByRole('region', { name: 'No manufacturer' })
    expect(within(unnamed).getByText('F-7')).toBeTruthy()
    expect(asked).toEqual(['project-1'])
  })
})
