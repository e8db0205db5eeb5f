import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { StructureAddPlan } from '../../api/model-config'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { StructureAddPage } from './StructureAddPage'

/** The server's plan for the names the page sends: 2F replaced, 3F added above. */
function planFor(body: { floor_names?: string[] }): StructureAddPlan {
  const names = body.floor_names ?? []
  return {
    projectId: 'p1',
    name: 'Tower',
    shell: { fileName: 'shell.sbm', change: 'kept', replacesFileName: null },
    floors: [
      { name: '1F', elevation: 0, models: ['1F.sbm'], change: 'kept', sourceName: null },
      names.includes('2F.fbx')
        ? { name: '2F', elevation: 3, models: ['2F.sbm'], change: 'replaced', sourceName: '2F.fbx' }
        : { name: '2F', elevation: 3, models: ['2F.sbm'], change: 'kept', sourceName: null },
      ...(names.includes('3F.dae')
        ? [
            {
              name: '3F',
              elevation: 6,
              models: ['3F.sbm'],
              change: 'added' as const,
              sourceName: '3F.dae',
            },
          ]
        : []),
    ],
  }
}

/** Answers the project list and the preview; records the preview bodies. */
function stubServer() {
  const previews: Array<Record<string, unknown>> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = String(init?.body ?? '')
      const body = (
        sent.startsWith('{') ? JSON.parse(sent) : Object.fromEntries(new URLSearchParams(sent))
      ) as Record<string, unknown>
      let datum: unknown = null
      if (path === '/web/project/findProjectAll') {
        datum = { list: [{ id: 'p1', name: 'Tower', kind: 'building' }], total: 1 }
      } else if (path === '/web/modelConfig/addPreview') {
        previews.push(body)
        datum = planFor(body as { floor_names?: string[] })
      }
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return previews
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('StructureAddPage (/modelConfig/add)', () => {
  it('shows the structure the chosen floors would leave before saving', async () => {
    const previews = stubServer()
    renderWithI18n(<StructureAddPage />)
    await userEvent.click(screen.getByRole('combobox', { name: 'Building project' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Tower' }))
    const table = await screen.findByTestId('add-preview')
    expect(table.textContent).toContain('Result before saving: Tower')
    expect(table.querySelectorAll('tr[data-change="kept"]').length).toBe(3)

    await userEvent.upload(screen.getByTestId('merge-input-floors'), [
      new File(['x'], '2F.fbx'),
      new File(['y'], '3F.dae'),
    ])
    await waitFor(() => expect(previews.at(-1)?.floor_names).toEqual(['2F.fbx', '3F.dae']))
    await waitFor(() =>
      expect(screen.getByTestId('add-preview').querySelector('tr[data-change="added"]')).not.toBe(
        null,
      ),
    )
    const rows = [...screen.getByTestId('add-preview').querySelectorAll('tbody tr')].map(
      (row) => row.textContent,
    )
    // top floor first, as a building is drawn
    expect(rows).toEqual([
      'Shellshell.sbmUnchanged',
      '3F63F.sbm (from 3F.dae)New',
      '2F32F.sbm (from 2F.fbx)Replaced',
      '1F01F.sbmUnchanged',
    ])
  })

  it('names what is missing instead of sending an empty add', async () => {
    stubServer()
    renderWithI18n(<StructureAddPage />)
    await userEvent.click(screen.getByRole('button', { name: 'Save to the project' }))
    expect((await screen.findAllByText('Choose a building project.')).length).toBeGreaterThan(0)
    expect(
      screen.getAllByText('Choose a shell model or at least one floor model to add.').length,
    ).toBeGreaterThan(0)
  })
})
