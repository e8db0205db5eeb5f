import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { FormDialog, FormWrapper } from './FormWrapper'
import { TextField } from './TextField'
import { renderWithI18n } from './testing/render-with-i18n'

/** A promise the test settles by hand, to hold a submit "in flight". */
function deferred() {
  let resolve: () => void = () => {}
  const promise = new Promise<void>((settle) => {
    resolve = settle
  })
  return { promise, resolve }
}

describe('FormWrapper', () => {
  it('shows its title and submits with Enter in a field', async () => {
    const onSubmit = vi.fn()
    renderWithI18n(
      <FormWrapper title="Create project" onSubmit={onSubmit}>
        <TextField label="Name" />
      </FormWrapper>,
    )
    expect(screen.getByRole('heading', { name: 'Create project' })).toBeTruthy()
    await userEvent.type(screen.getByLabelText('Name'), 'Tower{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('blocks a second submit until the first finishes, and is busy meanwhile', async () => {
    const pending = deferred()
    const onSubmit = vi.fn(() => pending.promise)
    renderWithI18n(
      <FormWrapper onSubmit={onSubmit} submitLabel="Save">
        <TextField label="Name" />
      </FormWrapper>,
    )
    const save = screen.getByRole('button', { name: 'Save' })
    await userEvent.click(save)
    await userEvent.type(screen.getByLabelText('Name'), '{Enter}{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(save.hasAttribute('disabled')).toBe(true)
    expect(save.getAttribute('aria-busy')).toBe('true')

    pending.resolve()
    await vi.waitFor(() => expect(save.hasAttribute('disabled')).toBe(false))
    await userEvent.click(save)
    expect(onSubmit).toHaveBeenCalledTimes(2)
  })

  it('refuses a double submit fired in the same tick', async () => {
    const pending = deferred()
    const onSubmit = vi.fn(() => pending.promise)
    renderWithI18n(
      <FormWrapper onSubmit={onSubmit}>
        <span />
      </FormWrapper>,
    )
    const form = document.querySelector('form')
    form?.requestSubmit()
    form?.requestSubmit()
    expect(onSubmit).toHaveBeenCalledTimes(1)
    pending.resolve()
  })

  it('does not submit while the page says it is busy', async () => {
    const onSubmit = vi.fn()
    renderWithI18n(
      <FormWrapper onSubmit={onSubmit} isBusy>
        <TextField label="Name" />
      </FormWrapper>,
    )
    expect(screen.getByRole('button', { name: 'Submit' }).hasAttribute('disabled')).toBe(true)
    await userEvent.type(screen.getByLabelText('Name'), 'x{Enter}')
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('cancels without submitting', async () => {
    const onSubmit = vi.fn()
    const onCancel = vi.fn()
    renderWithI18n(
      <FormWrapper onSubmit={onSubmit} onCancel={onCancel}>
        <span />
      </FormWrapper>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onCancel).toHaveBeenCalledTimes(1)
    expect(onSubmit).not.toHaveBeenCalled()
  })
})

/** A page that owns the dialog's open state, as real pages do. */
function Harness({ onSubmit }: { onSubmit: () => Promise<void> }) {
  const [isOpen, setIsOpen] = useState(true)
  return (
    <FormDialog isOpen={isOpen} onOpenChange={setIsOpen} title="Edit path" onSubmit={onSubmit}>
      <TextField label="Path name" />
    </FormDialog>
  )
}

describe('FormDialog', () => {
  it('is a titled modal that Cancel closes', async () => {
    renderWithI18n(<Harness onSubmit={async () => {}} />)
    expect(screen.getByRole('dialog', { name: 'Edit path' })).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('closes on Escape', async () => {
    renderWithI18n(<Harness onSubmit={async () => {}} />)
    await userEvent.click(screen.getByLabelText('Path name'))
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('submits from inside the dialog', async () => {
    const onSubmit = vi.fn(async () => {})
    renderWithI18n(<Harness onSubmit={onSubmit} />)
    await userEvent.type(screen.getByLabelText('Path name'), 'Route A{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })
})
