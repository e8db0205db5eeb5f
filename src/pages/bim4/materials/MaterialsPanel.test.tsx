import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MaterialDatum } from '../../../api/materials'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { materialStore, overridesOf } from './material-store'
import { MaterialsPanel } from './MaterialsPanel'

const brick: MaterialDatum = {
  id: 'm1',
  name: 'Brick',
  base_color: '#AA3311',
  metalness: 0.1,
  roughness: 0.7,
  emissive: '#000000',
  base_color_map: '',
  normal_map: '',
  emissive_map: '',
  metal_rough_map: '',
  created_at: '',
  updated_at: '',
}

/** Answers `addMaterial` with the body it was sent (as the server stores it); records bodies. */
function stubServer() {
  const bodies: Array<Record<string, unknown>> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      const sent = String(init?.body ?? '')
      const body = (
        sent.startsWith('{') ? JSON.parse(sent) : Object.fromEntries(new URLSearchParams(sent))
      ) as Record<string, unknown>
      bodies.push(body)
      // the server answers numbers as numbers, whatever the form sent
      const datum = {
        ...brick,
        ...body,
        metalness: Number(body.metalness ?? brick.metalness),
        roughness: Number(body.roughness ?? brick.roughness),
        id: body.id ?? 'm2',
      }
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return bodies
}

afterEach(() => {
  vi.unstubAllGlobals()
  materialStore.materials = []
  materialStore.assignments = []
})

describe('MaterialsPanel: the edit form of an existing material', () => {
  it('fills the form with the material, saves it under its id and redraws its meshes', async () => {
    const bodies = stubServer()
    materialStore.projectId = 'p1'
    materialStore.materials = [brick]
    materialStore.assignments = [
      { id: 'a1', project_id: 'p1', model_id: 'model-1', mesh_name: 'Wall', material_id: 'm1' },
    ]
    renderWithI18n(<MaterialsPanel />)
    await userEvent.click(screen.getByRole('button', { name: 'Edit Brick' }))
    const form = screen.getByTestId('materials-form')
    expect(within(form).getByText('Edit material: Brick')).toBeTruthy()
    const name = within(form).getByRole('textbox', { name: /Name/ }) as HTMLInputElement
    expect(name.value).toBe('Brick')
    await userEvent.clear(name)
    await userEvent.type(name, 'Red brick')
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }))

    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]).toMatchObject({ id: 'm1', name: 'Red brick', base_color: '#aa3311' })
    await waitFor(() =>
      expect(materialStore.materials.map((row) => row.name)).toEqual(['Red brick']),
    )
    // one row still: changed, not added; its mesh keeps it
    expect(overridesOf(materialStore.materials, materialStore.assignments)).toHaveLength(1)
    // the form is back to making a new material
    expect(within(form).getByText('New material')).toBeTruthy()
    expect(within(form).getByRole('button', { name: 'Add material' })).toBeTruthy()
  })

  it('cancels an edit without sending anything', async () => {
    const bodies = stubServer()
    materialStore.materials = [brick]
    renderWithI18n(<MaterialsPanel />)
    await userEvent.click(screen.getByRole('button', { name: 'Edit Brick' }))
    const form = screen.getByTestId('materials-form')
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }))
    expect(within(form).getByText('New material')).toBeTruthy()
    expect((within(form).getByRole('textbox', { name: /Name/ }) as HTMLInputElement).value).toBe('')
    expect(bodies).toHaveLength(0)
  })
})
