import { beforeEach, describe, expect, it } from 'vitest'
import type { User } from '../api/types'
import {
  clearSession,
  isAdmin,
  isGuest,
  isSignedIn,
  markSessionTimedOut,
  reloadSessionFromStorage,
  session,
  sessionStorageKeys,
  signIn,
  storeToken,
  storeUserData,
  syncSessionAcrossTabs,
} from './session'

const ada: User = {
  id: 'u1',
  name: 'ada',
  nickname: 'Ada',
  sex: null,
  tel: '13800000000',
  email: null,
  birthday: null,
  job_title: null,
  company: null,
  avatar: null,
  role: 'editor',
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
}

beforeEach(() => {
  localStorage.clear()
  reloadSessionFromStorage()
  session.isOverTime = false
})

describe('session store', () => {
  it('starts signed out with nothing stored', () => {
    expect(session.signinStatus).toBe(0)
    expect(session.token).toBeNull()
    expect(session.userData).toBeNull()
    expect(isSignedIn()).toBe(false)
  })

  it('persists signin_status, user_data and the token, and restores them on reload', () => {
    signIn('t-1', ada)
    expect(localStorage.getItem(sessionStorageKeys.signinStatus)).toBe('1')
    expect(JSON.parse(localStorage.getItem(sessionStorageKeys.userData) ?? 'null')).toEqual(ada)
    expect(localStorage.getItem(sessionStorageKeys.token)).toBe('t-1')

    // A fresh page load reads the same session back.
    session.token = null
    session.userData = null
    session.signinStatus = 0
    reloadSessionFromStorage()
    expect(session.token).toBe('t-1')
    expect((session.userData as User | null)?.name).toBe('ada')
    expect(isSignedIn()).toBe(true)
  })

  it('sign-out clears the flag, the token and the user data, in memory and in storage', () => {
    signIn('t-1', ada)
    clearSession()
    expect(session.signinStatus).toBe(0)
    expect(session.token).toBeNull()
    expect(session.userData).toBeNull()
    expect(localStorage.getItem(sessionStorageKeys.signinStatus)).toBeNull()
    expect(localStorage.getItem(sessionStorageKeys.userData)).toBeNull()
    expect(localStorage.getItem(sessionStorageKeys.token)).toBeNull()
  })

  it('needs both a token and the signed-in flag to count as signed in', () => {
    expect(isSignedIn({ token: 't', signinStatus: 0 })).toBe(false)
    expect(isSignedIn({ token: null, signinStatus: 1 })).toBe(false)
    expect(isSignedIn({ token: 't', signinStatus: 1 })).toBe(true)
  })

  it('stores a refreshed token and an updated user', () => {
    signIn('t-1', ada)
    storeToken('t-2')
    storeUserData({ ...ada, nickname: 'Countess' })
    reloadSessionFromStorage()
    expect(session.token).toBe('t-2')
    expect(session.userData?.nickname).toBe('Countess')
  })

  it('marks the timeout once and signs out; the next sign-in clears the mark', () => {
    signIn('t-1', ada)
    expect(markSessionTimedOut()).toBe(true)
    expect(markSessionTimedOut()).toBe(false)
    expect(session.isOverTime).toBe(true)
    expect(isSignedIn()).toBe(false)
    signIn('t-2', ada)
    expect(session.isOverTime).toBe(false)
  })

  it('ignores a corrupted stored user instead of failing to start', () => {
    localStorage.setItem(sessionStorageKeys.userData, '{not json')
    reloadSessionFromStorage()
    expect(session.userData).toBeNull()
  })

  it('tells guests and admins apart', () => {
    expect(isGuest({ userData: { ...ada, role: 'guest' } })).toBe(true)
    expect(isAdmin({ userData: { ...ada, role: 'admin' } })).toBe(true)
    expect(isAdmin({ userData: ada })).toBe(false)
  })

  it('follows a sign-out made in another tab', () => {
    signIn('t-1', ada)
    const stop = syncSessionAcrossTabs()
    // What the other tab's sign-out leaves in the shared storage.
    localStorage.removeItem(sessionStorageKeys.token)
    localStorage.removeItem(sessionStorageKeys.signinStatus)
    localStorage.removeItem(sessionStorageKeys.userData)
    window.dispatchEvent(new StorageEvent('storage', { key: sessionStorageKeys.token }))
    stop()
    expect(isSignedIn()).toBe(false)
    expect(session.userData).toBeNull()
  })
})
