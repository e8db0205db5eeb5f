import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { messageTypes } from '../message-type'
import { renderWithI18n } from '../testing/render-with-i18n'
import { ToastHost } from './ToastHost'
import { defaultToastDurationMs, maxVisibleToasts, toast, toastStore } from './toast-store'

afterEach(() => {
  act(() => toast.dismissAll())
  vi.useRealTimers()
})

function toastElements() {
  return document.querySelectorAll<HTMLElement>('.ts-toast')
}

describe('toast', () => {
  it.each(messageTypes)('shows a %s message raised from outside React', (type) => {
    renderWithI18n(<ToastHost />)
    act(() => {
      toast[type](`Server says ${type}`)
    })
    const [element] = toastElements()
    expect(element?.dataset.type).toBe(type)
    expect(element?.textContent).toContain(`Server says ${type}`)
  })

  it('keeps several toasts in order and drops the oldest beyond the limit', () => {
    renderWithI18n(<ToastHost />)
    act(() => {
      for (let index = 1; index <= maxVisibleToasts + 2; index += 1) toast.info(`message ${index}`)
    })
    const texts = [...toastElements()].map((element) => element.textContent)
    expect(texts).toHaveLength(maxVisibleToasts)
    expect(texts[0]).toContain('message 3')
    expect(texts.at(-1)).toContain(`message ${maxVisibleToasts + 2}`)
  })

  it('closes with its close button', async () => {
    renderWithI18n(<ToastHost />)
    act(() => {
      toast.error('Failed to add.')
    })
    const element = toastElements()[0]
    if (!element) throw new Error('no toast shown')
    await userEvent.click(within(element).getByRole('button', { name: 'Close' }))
    expect(toastStore.get()).toHaveLength(0)
    expect(screen.queryByText('Failed to add.')).toBeNull()
  })

  it('goes away by itself after its duration, errors later than successes', () => {
    vi.useFakeTimers()
    renderWithI18n(<ToastHost />)
    act(() => {
      toast.success('Added successfully.')
      toast.error('Failed to modify.')
    })
    act(() => {
      vi.advanceTimersByTime(defaultToastDurationMs.success + 50)
    })
    expect(toastStore.get().map((entry) => entry.message)).toEqual(['Failed to modify.'])
    act(() => {
      vi.advanceTimersByTime(defaultToastDurationMs.error)
    })
    expect(toastStore.get()).toHaveLength(0)
  })

  it('can be dismissed by id', () => {
    renderWithI18n(<ToastHost />)
    let id = 0
    act(() => {
      id = toast.warning('first')
      toast.warning('second')
    })
    act(() => toast.dismiss(id))
    expect([...toastElements()].map((element) => element.textContent)).toEqual([
      expect.stringContaining('second'),
    ])
  })
})
