import { describe, expect, it } from 'vitest'
import {
  type GuardDependencies,
  guardNavigation,
  redirectTargetAfterSignIn,
  signInPathFor,
} from './guard'
import { parseHashLocation } from './hash-location'

/** Guard dependencies backed by plain flags, recording which calls the guard made. */
function dependencies(state: { isSignedIn: boolean; hasUserData: boolean }) {
  const calls: string[] = []
  const deps: GuardDependencies = {
    isSignedIn: () => state.isSignedIn,
    hasUserData: () => state.hasUserData,
    refreshToken: async () => {
      calls.push('refreshToken')
    },
    fetchUserData: async () => {
      calls.push('fetchUserData')
      state.hasUserData = true
    },
    signOut: async () => {
      calls.push('signOut')
      state.isSignedIn = false
    },
  }
  return { deps, calls, state }
}

const go = (fullPath: string, fromPath: string, deps: GuardDependencies) =>
  guardNavigation(parseHashLocation(fullPath), fromPath, deps)

describe('navigation guard (SPEC §2), rule by rule', () => {
  it('1. lets the public preview through, even signed out and straight from the root', async () => {
    const { deps, calls } = dependencies({ isSignedIn: false, hasUserData: false })
    expect(await go('/bim4/outPreview?id=1', '/', deps)).toEqual({ kind: 'proceed' })
    expect(calls).toEqual([])
  })

  it('2. sends a /bim4/ page other than poi opened from the root path to /bim4/poi', async () => {
    const { deps } = dependencies({ isSignedIn: true, hasUserData: true })
    expect(await go('/bim4/style/lightset', '/', deps)).toEqual({
      kind: 'redirect',
      to: '/bim4/poi',
    })
    expect(await go('/bim4/download', '/', deps)).toEqual({ kind: 'redirect', to: '/bim4/poi' })
    // From inside the editor the same page opens normally.
    expect(await go('/bim4/style/lightset', '/bim4/poi', deps)).toEqual({ kind: 'proceed' })
    // poi itself passes from the root.
    expect(await go('/bim4/poi', '/', deps)).toEqual({ kind: 'proceed' })
  })

  it('3. signs out on the logout route and goes to sign-in', async () => {
    const { deps, calls, state } = dependencies({ isSignedIn: true, hasUserData: true })
    expect(await go('/logout', '/note', deps)).toEqual({ kind: 'redirect', to: '/login' })
    expect(calls).toEqual(['signOut'])
    expect(state.isSignedIn).toBe(false)
  })

  it('4. lets no-auth routes through without touching the session', async () => {
    const { deps, calls } = dependencies({ isSignedIn: false, hasUserData: false })
    for (const path of ['/login', '/register', '/forget', '/no/such/page']) {
      expect(await go(path, '/', deps)).toEqual({ kind: 'proceed' })
    }
    expect(calls).toEqual([])
  })

  it('5. signed in: refreshes the token, fetches the missing user, then proceeds', async () => {
    const { deps, calls } = dependencies({ isSignedIn: true, hasUserData: false })
    expect(await go('/system/person', '/login', deps)).toEqual({ kind: 'proceed' })
    expect(calls).toEqual(['refreshToken', 'fetchUserData'])
    // With the user held, only the refresh happens.
    expect(await go('/note', '/system/person', deps)).toEqual({ kind: 'proceed' })
    expect(calls).toEqual(['refreshToken', 'fetchUserData', 'refreshToken'])
  })

  it('5. proceeds even when the background refresh or the user fetch fails', async () => {
    const { deps } = dependencies({ isSignedIn: true, hasUserData: false })
    deps.refreshToken = () => Promise.reject(new Error('offline'))
    deps.fetchUserData = () => Promise.reject(new Error('offline'))
    expect(await go('/note', '/login', deps)).toEqual({ kind: 'proceed' })
  })

  it('6. signed out: goes to sign-in with the wanted full path in `redirect`', async () => {
    const { deps, calls } = dependencies({ isSignedIn: false, hasUserData: false })
    expect(await go('/project/more/ordetails?orderId=42&x=a b', '/', deps)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fproject%2Fmore%2Fordetails%3ForderId%3D42%26x%3Da%20b',
    })
    expect(calls).toEqual([])
  })

  it('applies the redirect records first, keeping the query', async () => {
    const { deps } = dependencies({ isSignedIn: true, hasUserData: true })
    expect(await go('/', '/', deps)).toEqual({ kind: 'redirect', to: '/projectManage/bim' })
    expect(await go('/system?x=1', '/note', deps)).toEqual({
      kind: 'redirect',
      to: '/system/person?x=1',
    })
    expect(await go('/bim4/visit', '/bim4/poi', deps)).toEqual({
      kind: 'redirect',
      to: '/bim4/visit/link',
    })
  })
})

describe('the redirect query round trip', () => {
  it('returns to exactly the wanted full path after sign-in', async () => {
    const wanted = '/project/more/ordetails?orderId=42&kind=a%26b'
    const { deps } = dependencies({ isSignedIn: false, hasUserData: false })
    const outcome = await go(wanted, '/', deps)
    expect(outcome.kind).toBe('redirect')
    const signInLocation = parseHashLocation(outcome.kind === 'redirect' ? outcome.to : '')
    expect(signInLocation.path).toBe('/login')
    expect(redirectTargetAfterSignIn(signInLocation.search)).toBe(wanted)
    expect(signInPathFor(parseHashLocation(wanted))).toBe(outcome.kind === 'redirect' && outcome.to)
  })

  it('refuses targets outside the app and loops back to sign-in', () => {
    expect(redirectTargetAfterSignIn('')).toBe('/')
    expect(redirectTargetAfterSignIn('redirect=https%3A%2F%2Fevil.example')).toBe('/')
    expect(redirectTargetAfterSignIn('redirect=%2F%2Fevil.example')).toBe('/')
    expect(redirectTargetAfterSignIn('redirect=%2Flogin')).toBe('/')
    expect(redirectTargetAfterSignIn('redirect=%2Flogout')).toBe('/')
    expect(redirectTargetAfterSignIn('redirect=%2Fnote')).toBe('/note')
  })
})
