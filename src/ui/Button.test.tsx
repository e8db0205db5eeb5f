import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { Button } from './Button'
import { renderWithI18n } from './testing/render-with-i18n'

describe('Button', () => {
  it('runs its action on click and never submits a form unless asked', async () => {
    const onClick = vi.fn()
    const onSubmit = vi.fn((event: Event) => event.preventDefault())
    renderWithI18n(
      <form onSubmit={(event) => onSubmit(event.nativeEvent)}>
        <Button onClick={onClick}>Apply</Button>
      </form>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    expect(onClick).toHaveBeenCalledTimes(1)
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it.each(['primary', 'secondary', 'danger', 'ghost'] as const)(
    'draws the %s variant',
    (variant) => {
      renderWithI18n(<Button variant={variant}>Go</Button>)
      expect(screen.getByRole('button', { name: 'Go' }).className).toContain(
        `ts-button--${variant}`,
      )
    },
  )

  it('refuses clicks while disabled', async () => {
    const onClick = vi.fn()
    renderWithI18n(
      <Button disabled onClick={onClick}>
        Save
      </Button>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onClick).not.toHaveBeenCalled()
  })

  it('while busy shows it, keeps its name and refuses clicks', async () => {
    const onClick = vi.fn()
    renderWithI18n(
      <Button isBusy onClick={onClick}>
        Save
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'Save' })
    expect(button.getAttribute('aria-busy')).toBe('true')
    expect(button.hasAttribute('disabled')).toBe(true)
    expect(button.querySelector('.ts-spinner')).not.toBeNull()
    await userEvent.click(button)
    expect(onClick).not.toHaveBeenCalled()
  })
})
