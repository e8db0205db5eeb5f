import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProjectPage } from '../api/project'
import type { User } from '../api/types'
import {
  clearSession,
  reloadSessionFromStorage,
  session,
  signIn,
  storeToken,
  storeUserData,
} from '../state/session'
import { ApiError } from '../api/client'
import { stopSmsCountdown } from '../pages/sign/sms-countdown'
import { App } from './App'
import type { AppServices } from './services'

const ada: User = {
  id: 'u1',
  name: 'ada',
  nickname: 'Ada',
  sex: null,
  tel: null,
  email: null,
  birthday: null,
  job_title: null,
  company: null,
  avatar: null,
  role: 'editor',
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
}

/**
 * An in-memory stand-in for the server behind the frame's calls: it accepts ada/secret-pass and
 * writes the real session store the way the real calls do, and records what was called.
 */
const heldBack = { isOn: false }

function inMemoryServices() {
  const calls: string[] = []
  const services: AppServices = {
    signInWithPassword: async (name, password, code) => {
      calls.push(code === undefined ? 'signIn' : `signIn with ${code}`)
      // someone has been guessing ada's password: only a sign-in code lets her in now
      if (heldBack.isOn && code !== '246810') {
        throw new ApiError({
          reason: 'server',
          httpStatus: 429,
          fallbackMessage: '',
          envelope: {
            code: '1029',
            message: 'Too many failed sign-ins.',
            datum: { retryAfterSeconds: 840, secondFactor: 'code' },
          },
        })
      }
      if (name !== 'ada' || password !== 'secret-pass') throw new Error('bad credentials')
      signIn('token-1', ada)
      return ada
    },
    signInWithTicket: async () => {
      calls.push('ticket')
      signIn('ticket-token', ada)
      return ada
    },
    signInAsGuest: async () => {
      calls.push('guest')
      const guest = { ...ada, id: 'g1', name: 'guest-1', nickname: null, role: 'guest' as const }
      signIn('guest-token', guest)
      return guest
    },
    requestSmsCode: async () => {
      calls.push('sms')
    },
    requestSignInCode: async (name) => {
      calls.push(`sign-in code for ${name}`)
    },
    registerByTel: async () => {
      calls.push('register')
    },
    requestMailCode: async () => {
      calls.push('mail')
    },
    isEmailTaken: async () => false,
    registerByMail: async () => {
      calls.push('register by mail')
    },
    checkResetCode: async () => {
      calls.push('check code')
    },
    resetPasswordByTel: async () => {
      calls.push('reset')
    },
    refreshToken: async () => {
      calls.push('refresh')
      storeToken('token-2')
    },
    fetchCurrentUser: async () => {
      calls.push('fetchUser')
      storeUserData(ada)
      return ada
    },
    signOut: async () => {
      calls.push('signOut')
      clearSession()
    },
    queryNotices: async () => [],
    markNoticeRead: async () => undefined,
    fetchRoleMenuKeys: async () => [],
  }
  return { services, calls }
}

/**
 * The pages inside the frame (the project home's lists) call the API through `fetch`; this
 * in-memory server answers them the way an account without projects sees them, and records
 * every path so a test can tell the page really asked.
 */
function stubPageCalls() {
  const paths: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      paths.push(path)
      const envelope = (status: number, code: string, message: string, datum: unknown) =>
        new Response(JSON.stringify({ code, message, datum }), {
          status,
          headers: { 'content-type': 'application/json' },
        })
      if (path === '/web/project/findProjectAll') {
        const query = new URLSearchParams(String(init?.body ?? ''))
        const page: ProjectPage = {
          list: [],
          total: 0,
          pageNo: Number(query.get('pageNo') ?? 1),
          pageSize: Number(query.get('pageSize') ?? 12),
        }
        return envelope(200, '0', 'OK', page)
      }
      return envelope(404, '1004', `No stub for ${path}`, null)
    }),
  )
  return { paths }
}

function openAt(fullPath: string) {
  window.history.replaceState(null, '', `/#${fullPath}`)
}

let pageCalls: ReturnType<typeof stubPageCalls>

beforeEach(() => {
  localStorage.clear()
  reloadSessionFromStorage()
  session.isOverTime = false
  pageCalls = stubPageCalls()
})

afterEach(() => {
  vi.unstubAllGlobals()
})

/** Pages behind sign-in load lazily (routes.tsx): a page module's first import takes a moment. */
const lazyPageLoad = { timeout: 15_000 }

describe('App routing with the guard', () => {
  it('sends a signed-out user to sign-in with the wanted page, then back to it', async () => {
    const { services } = inMemoryServices()
    openAt('/project/more/ordetails?orderId=42')
    render(<App services={services} />)

    await screen.findByRole('button', { name: 'Sign in' })
    expect(window.location.hash).toBe(
      '#/login?redirect=%2Fproject%2Fmore%2Fordetails%3ForderId%3D42',
    )
    expect(document.title).toBe('Sign in - Twinscape')

    const user = userEvent.setup()
    await user.type(screen.getByLabelText(/User name/), 'ada')
    await user.type(screen.getByLabelText(/^Password/), 'secret-pass')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))

    // The order page itself needs the orders API (not in these services): the route is the point.
    await waitFor(() => expect(window.location.hash).toBe('#/project/more/ordetails?orderId=42'))
    expect(document.title).toBe('My order - Twinscape')
    expect(session.token).toBe('token-2')
  })

  it('offers a sign-in code when the account is held back, and signs in with it', async () => {
    const { services, calls } = inMemoryServices()
    heldBack.isOn = true
    try {
      openAt('/login')
      render(<App services={services} />)
      const user = userEvent.setup()
      await user.type(await screen.findByLabelText(/User name/), 'ada')
      await user.type(screen.getByLabelText(/^Password/), 'secret-pass')
      await user.click(screen.getByRole('button', { name: 'Sign in' }))
      const notice = await screen.findByTestId('sign-in-held-back')
      expect(notice.textContent).toContain('Try again in 14 min')
      await user.click(screen.getByRole('button', { name: 'Get code' }))
      expect(calls).toContain('sign-in code for ada')
      await user.type(screen.getByLabelText(/Verification code/), '246810')
      await user.click(screen.getByRole('button', { name: 'Sign in' }))
      await waitFor(() => expect(session.token).not.toBeNull())
      expect(calls).toContain('signIn with 246810')
    } finally {
      heldBack.isOn = false
      stopSmsCountdown()
    }
  })

  it('signs in with a sign-in link (a ticket from another browser) and opens the console', async () => {
    const { services, calls } = inMemoryServices()
    openAt('/login?ticket=t-1')
    render(<App services={services} />)
    await screen.findByRole('heading', { name: 'Project list' }, lazyPageLoad)
    expect(calls.filter((call) => call === 'ticket')).toHaveLength(1)
    expect(window.location.hash).toBe('#/projectManage/bim')
  })

  it('redirects / through /projectManage to the project list and highlights it', async () => {
    const { services } = inMemoryServices()
    signIn('token-1', ada)
    openAt('/')
    render(<App services={services} />)
    await screen.findByRole('heading', { name: 'Project list' }, lazyPageLoad)
    expect(window.location.hash).toBe('#/projectManage/bim')
    expect(screen.getByRole('link', { name: 'City' }).getAttribute('aria-current')).toBe('page')
    expect(screen.getByRole('link', { name: 'Space' }).getAttribute('aria-current')).toBeNull()
    expect(screen.getByTestId('greeting').textContent).toMatch(/, Ada$/)
    // both lists loaded (from the stub) and show their totals
    expect((await screen.findByTestId('project-count-city')).textContent).toBe('Total: 0')
    expect((await screen.findByTestId('project-count-building')).textContent).toBe('Total: 0')
    expect(pageCalls.paths.filter((path) => path === '/web/project/findProjectAll')).toHaveLength(2)
  })

  it('fetches the user when only the token survived, before showing the page', async () => {
    const { services, calls } = inMemoryServices()
    signIn('token-1', ada)
    session.userData = null
    openAt('/system/person')
    render(<App services={services} />)
    await screen.findByRole('heading', { name: 'Personal info' }, lazyPageLoad)
    expect(calls).toContain('fetchUser')
    expect((screen.getByLabelText(/User name/) as HTMLInputElement).value).toBe('ada')
  })

  it('signs out on /logout and lands on sign-in', async () => {
    const { services, calls } = inMemoryServices()
    signIn('token-1', ada)
    openAt('/note')
    render(<App services={services} />)
    await screen.findByRole('heading', { name: 'Version notes' }, lazyPageLoad)
    act(() => {
      window.location.hash = '#/logout'
    })
    await screen.findByRole('button', { name: 'Sign in' })
    expect(calls).toContain('signOut')
    expect(window.location.hash).toBe('#/login')
    expect(session.token).toBeNull()
  })

  it('shows the 404 page for an unknown address without asking to sign in', async () => {
    const { services } = inMemoryServices()
    openAt('/no/such/page')
    render(<App services={services} />)
    await screen.findByRole('heading', { name: 'Page not found' })
    // the title is set in an effect, which may run just after the heading is on the page
    await waitFor(() => expect(document.title).toBe('Page not found - Twinscape'))
    expect(window.location.hash).toBe('#/no/such/page')
  })

  it('keeps admin pages from other users', async () => {
    const { services } = inMemoryServices()
    signIn('token-1', ada)
    openAt('/system/users')
    render(<App services={services} />)
    await screen.findByText('Only administrators can open this page.')
    expect(screen.queryByRole('link', { name: 'User management' })).toBeNull()
  })

  it('lets a guest in and shows editing as disabled', async () => {
    const { services } = inMemoryServices()
    openAt('/login?redirect=%2Fsystem%2Fsecurity')
    render(<App services={services} />)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Continue as guest' }))
    await screen.findByRole('heading', { name: 'System settings' }, lazyPageLoad)
    expect(screen.getByText('Guests cannot change the password.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Modify' }) as HTMLButtonElement).disabled).toBe(
      true,
    )
    expect((screen.getByLabelText(/Current password/) as HTMLInputElement).disabled).toBe(true)
  })

  it('opens a scene-editor subpage straight from a pasted link at poi', async () => {
    const { services } = inMemoryServices()
    signIn('token-1', ada)
    openAt('/bim4/style')
    render(<App services={services} />)
    await screen.findByRole('heading', { name: 'POI' }, lazyPageLoad)
    await waitFor(() => expect(window.location.hash).toBe('#/bim4/poi'))
  })
})
