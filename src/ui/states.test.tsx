import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { EmptyState } from './EmptyState'
import { ErrorState } from './ErrorState'
import { LoadStates } from './LoadStates'
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

describe('LoadStates', () => {
  const show = (data: string[] | null, error: string | null) =>
    renderWithI18n(
      <LoadStates
        data={data}
        error={error}
        isEmpty={(list) => list.length === 0}
        emptyTitle="No rows"
      >
        {(list) => (
          <ul>
            {list.map((row) => (
              <li key={row}>{row}</li>
            ))}
          </ul>
        )}
      </LoadStates>,
    )

  it('spins until the first answer, then shows the rows', () => {
    const { rerender } = show(null, null)
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy()
    rerender(
      <LoadStates
        data={['a', 'b']}
        error={null}
        isEmpty={(list) => list.length === 0}
        emptyTitle="No rows"
      >
        {(list) => (
          <ul>
            {list.map((row) => (
              <li key={row}>{row}</li>
            ))}
          </ul>
        )}
      </LoadStates>,
    )
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['a', 'b'])
  })

  it('shows the failure only while nothing has loaded: a failed refresh keeps the rows', () => {
    show(null, 'Failed to request')
    expect(screen.getByRole('alert').textContent).toContain('Failed to request')
    show(['kept'], 'Failed to request')
    expect(screen.getByText('kept')).toBeTruthy()
  })

  it('says what is empty', () => {
    show([], null)
    expect(screen.getByText('No rows')).toBeTruthy()
  })
})
