import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { EmptyState } from './EmptyState'
import { ErrorState } from './ErrorState'
import { Spinner } from './Spinner'
import { renderWithI18n } from './testing/render-with-i18n'

describe('Spinner', () => {
  it('is announced as loading', () => {
    renderWithI18n(<Spinner />)
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy()
  })
})

describe('EmptyState', () => {
  it('says there is no data unless told what is empty', () => {
    renderWithI18n(<EmptyState />)
    expect(screen.getByText('No data')).toBeTruthy()
  })

  it('shows its own title, hint and action', () => {
    renderWithI18n(
      <EmptyState
        title="No projects"
        description="Create one to start."
        action={<button type="button">Create</button>}
      />,
    )
    expect(screen.getByText('No projects')).toBeTruthy()
    expect(screen.getByText('Create one to start.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Create' })).toBeTruthy()
  })
})

describe('ErrorState', () => {
  it('announces the failure with the server message', () => {
    renderWithI18n(<ErrorState message="Failed to request" />)
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Something went wrong')
    expect(alert.textContent).toContain('Failed to request')
  })

  it('offers a retry only when it can retry', async () => {
    const { rerender } = renderWithI18n(<ErrorState />)
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
    const onRetry = vi.fn()
    rerender(<ErrorState onRetry={onRetry} />)
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })
})
