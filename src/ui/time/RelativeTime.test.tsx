import { i18n } from '@lingui/core'
import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { messages as koMessages } from '../locales/ko.po'
import { renderWithI18n } from '../testing/render-with-i18n'
import { RelativeTime } from './RelativeTime'

afterEach(() => vi.useRealTimers())

/** Moves the fake clock a second at a time, letting React re-arm its timer after each tick. */
function advanceSeconds(count: number) {
  for (let tick = 0; tick < count; tick += 1) {
    act(() => {
      vi.advanceTimersByTime(1000)
    })
  }
}

describe('RelativeTime', () => {
  it('writes the relative time in a <time> carrying the exact moment', () => {
    const fromMs = Date.UTC(2026, 0, 2, 3, 4, 5)
    renderWithI18n(<RelativeTime fromMs={fromMs} nowMs={fromMs + 5 * 60_000} />)
    const time = screen.getByText('5 minutes ago')
    expect(time.tagName).toBe('TIME')
    expect(time.getAttribute('datetime')).toBe('2026-01-02T03:04:05.000Z')
    expect(time.getAttribute('title')).toBeTruthy()
  })

  it('follows the clock by itself', () => {
    vi.useFakeTimers()
    const fromMs = Date.now()
    renderWithI18n(<RelativeTime fromMs={fromMs} />)
    expect(screen.getByText('just now')).toBeTruthy()
    advanceSeconds(40)
    expect(screen.getByText('40 seconds ago')).toBeTruthy()
    advanceSeconds(25)
    expect(screen.getByText('1 minute ago')).toBeTruthy()
  })

  it('speaks the active language', () => {
    act(() => i18n.loadAndActivate({ locale: 'ko', messages: koMessages }))
    const fromMs = Date.UTC(2026, 0, 1)
    renderWithI18n(<RelativeTime fromMs={fromMs} nowMs={fromMs + 3 * 86_400_000} />)
    expect(screen.getByText('3일 전')).toBeTruthy()
  })
})
