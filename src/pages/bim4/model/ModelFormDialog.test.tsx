import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { BuildingModel } from '../../../../contract/building'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { ModelFormDialog } from './ModelFormDialog'

const model = { id: 'm1', name: 'desk', role: 'model' as const, floor_id: 'f1' }
const floors = [
  { id: 'f1', name: '1F' },
  { id: 'f2', name: '2F' },
]

describe('ModelFormDialog (model form, updateBimModel)', () => {
  it("saves a model's new name, role and floor", async () => {
    const save = vi.fn(async (change: { id: string }) => ({ ...model, ...change }) as BuildingModel)
    const onSaved = vi.fn()
    renderWithI18n(
      <ModelFormDialog
        model={model}
        floors={floors}
        onClose={vi.fn()}
        onSaved={onSaved}
        save={save}
      />,
    )
    const name = screen.getByRole('textbox', { name: /Name/ })
    await userEvent.clear(name)
    await userEvent.type(name, 'Reception desk')
    await userEvent.click(screen.getByRole('combobox', { name: 'Role in the building' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Floor' }))
    await userEvent.click(screen.getByRole('combobox', { name: 'Floor' }))
    await userEvent.click(await screen.findByRole('option', { name: '2F' }))
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(save).toHaveBeenCalledWith({
      id: 'm1',
      name: 'Reception desk',
      role: 'floor',
      floor_id: 'f2',
    })
  })

  it('moves, turns and scales a model with updatemodelinfo, and refuses a zero scale', async () => {
    const placed = {
      ...model,
      placement: {
        position: [1, 0, 2] as [number, number, number],
        rotationDegrees: [0, 15, 0] as [number, number, number],
        scale: [1, 1, 1] as [number, number, number],
      },
    }
    const save = vi.fn(
      async (change: { id: string }) => ({ ...placed, ...change }) as BuildingModel,
    )
    const savePlacement = vi.fn(
      async (change: { id: string }) => ({ ...placed, ...change }) as never,
    )
    const onSaved = vi.fn()
    renderWithI18n(
      <ModelFormDialog
        model={placed}
        floors={floors}
        onClose={vi.fn()}
        onSaved={onSaved}
        save={save}
        savePlacement={savePlacement}
      />,
    )
    const field = (name: string) => screen.getByRole('spinbutton', { name })
    await userEvent.clear(field('X (m)'))
    await userEvent.type(field('X (m)'), '4.5')
    await userEvent.clear(field('Turn (degrees)'))
    await userEvent.type(field('Turn (degrees)'), '-90')
    await userEvent.clear(field('Scale'))
    await userEvent.type(field('Scale'), '0')
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    expect(await screen.findByText('A scale above 0')).toBeTruthy()
    expect(save).not.toHaveBeenCalled()
    await userEvent.clear(field('Scale'))
    await userEvent.type(field('Scale'), '2')
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(savePlacement).toHaveBeenCalledWith({
      id: 'm1',
      position: [4.5, 0, 2],
      rotationDegrees: [0, -90, 0],
      scale: [2, 2, 2],
    })
  })

  it('takes a model off its floor, and refuses an empty name', async () => {
    const save = vi.fn(async (change: { id: string }) => ({ ...model, ...change }) as BuildingModel)
    renderWithI18n(
      <ModelFormDialog
        model={model}
        floors={floors}
        onClose={vi.fn()}
        onSaved={vi.fn()}
        save={save}
      />,
    )
    await userEvent.clear(screen.getByRole('textbox', { name: /Name/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    expect(await screen.findByText('Please enter a name.')).toBeTruthy()
    expect(save).not.toHaveBeenCalled()
    await userEvent.type(screen.getByRole('textbox', { name: /Name/ }), 'desk')
    await userEvent.click(screen.getByRole('combobox', { name: 'Floor' }))
    await userEvent.click(await screen.findByRole('option', { name: 'No floor' }))
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() =>
      expect(save).toHaveBeenCalledWith(expect.objectContaining({ floor_id: null })),
    )
  })
})
