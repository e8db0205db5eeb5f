import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { confirm, toast, UiRoot, uploadStore } from './index'
import { renderWithI18n } from './testing/render-with-i18n'

afterEach(async () => {
  await act(async () => {
    toast.dismissAll()
    uploadStore.close()
  })
})

describe('UiRoot', () => {
  it('hosts toasts, confirm dialogs and the upload window for the whole app', async () => {
    renderWithI18n(
      <UiRoot>
        <main>Page</main>
      </UiRoot>,
    )
    expect(screen.getByText('Page')).toBeTruthy()

    act(() => {
      toast.success('Uploaded.')
    })
    expect(screen.getByText('Uploaded.')).toBeTruthy()

    let answer: Promise<boolean> = Promise.resolve(false)
    act(() => {
      answer = confirm({ type: 'warning', message: 'Leave the editor?' })
    })
    await userEvent.click(await screen.findByRole('button', { name: 'OK' }))
    await expect(answer).resolves.toBe(true)

    await act(async () => uploadStore.open())
    expect(screen.getByRole('region', { name: 'upload list' })).toBeTruthy()
  })
})
