import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { ModelListItem, type ModelListItemProps } from './ModelListItem'

function renderItem(overrides: Partial<ModelListItemProps> = {}) {
  const props: ModelListItemProps = {
    model: { id: 'm1', name: '1F.sbm', role: 'floor', preview_path: null },
    loadState: 'success',
    errorMessage: null,
    floorName: '1F',
    isProjectPaid: false,
    isBusy: false,
    onDelete: vi.fn(),
    onReplace: vi.fn(),
    onFit: vi.fn(),
    ...overrides,
  }
  renderWithI18n(
    <ul>
      <ModelListItem {...props} />
    </ul>,
  )
  return props
}

describe('ModelListItem (SPEC §2 library item, §4 load state and payment)', () => {
  it('shows the name, role and floor, and deletes on request', async () => {
    const props = renderItem()
    expect(screen.getByText('1F.sbm')).toBeDefined()
    expect(screen.getByText('Floor · 1F')).toBeDefined()
    expect(screen.getByRole('img', { name: 'Loaded' })).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: 'Delete 1F.sbm' }))
    expect(props.onDelete).toHaveBeenCalledOnce()
  })

  it('keeps the models of a paid project: delete is disabled and does nothing', async () => {
    const props = renderItem({ isProjectPaid: true })
    const button = screen.getByRole('button', { name: 'Delete 1F.sbm' })
    expect(button.getAttribute('aria-disabled')).toBe('true')
    await userEvent.click(button)
    expect(props.onDelete).not.toHaveBeenCalled()
  })

  it('carries the load error in the state icon', () => {
    renderItem({
      loadState: 'error',
      errorMessage: 'Failed to load a model, not a valid SBM file!',
    })
    expect(
      screen.getByRole('img', {
        name: 'Failed to load: Failed to load a model, not a valid SBM file!',
      }),
    ).toBeDefined()
    // a model that did not load cannot be framed
    expect(screen.getByRole('button', { name: 'Show 1F.sbm' })).toHaveProperty('disabled', true)
  })

  it('hands a new file to "update model"', async () => {
    const props = renderItem()
    const input = screen.getByLabelText('New file for 1F.sbm') as HTMLInputElement
    const file = new File([new Uint8Array(8)], 'new.sbm')
    await userEvent.upload(input, file)
    expect(props.onReplace).toHaveBeenCalledWith([file])
  })
})
