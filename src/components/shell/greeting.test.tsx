import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { reloadSessionFromStorage, session, signIn } from '../../state/session'
import { Greeting } from './Greeting'
import { dayPeriodOfHour } from './greeting'

beforeEach(() => {
  localStorage.clear()
  reloadSessionFromStorage()
  session.isOverTime = false
})

describe('greeting by hour (SPEC §9)', () => {
  it('maps every hour of the day to its period', () => {
    const periods = Array.from({ length: 24 }, (_, hour) => dayPeriodOfHour(hour))
    expect(periods).toEqual([
      ...Array(6).fill('night'),
      ...Array(6).fill('morning'),
      ...Array(2).fill('noon'),
      ...Array(5).fill('afternoon'),
      ...Array(5).fill('evening'),
    ])
  })

  const user = {
    id: 'u1',
    name: 'ada',
    nickname: null as string | null,
    sex: null,
    tel: null,
    email: null,
    birthday: null,
    job_title: null,
    company: null,
    avatar: null,
    role: 'editor' as const,
    created_at: '',
    updated_at: '',
  }

  it('greets by nickname when there is one', () => {
    signIn('t', { ...user, nickname: 'Ada' })
    renderWithI18n(<Greeting now={() => new Date(2026, 0, 1, 12, 30)} />)
    expect(screen.getByTestId('greeting').textContent).toBe('Good noon, Ada')
  })

  it('falls back to the name', () => {
    signIn('t', user)
    renderWithI18n(<Greeting now={() => new Date(2026, 0, 1, 5, 59)} />)
    expect(screen.getByTestId('greeting').textContent).toBe('Good night, ada')
  })

  it('greets without a name before the user is known', () => {
    renderWithI18n(<Greeting now={() => new Date(2026, 0, 1, 19, 0)} />)
    expect(screen.getByTestId('greeting').textContent).toBe('Good evening')
  })
})
