import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reloadSessionFromStorage, session, signIn } from '../state/session'
import { installTestApi } from './test-api'

beforeEach(() => {
  localStorage.clear()
  reloadSessionFromStorage()
  session.isOverTime = false
  delete window.__twinTest
  window.history.replaceState(null, '', '/#/login')
})

afterEach(() => {
  delete window.__twinTest
})

describe('window.__twinTest', () => {
  it('is absent unless the twinTest switch is set', () => {
    installTestApi()
    expect(window.__twinTest).toBeUndefined()
  })

  it('reads the session and navigates when enabled, keeping members others added', () => {
    localStorage.setItem('twinTest', '1')
    const engineMember = () => 'snapshot'
    window.__twinTest = { getEngineSnapshot: engineMember } as unknown as TwinTestApi
    installTestApi()
    signIn('t-1', {
      id: 'u1',
      name: 'ada',
      nickname: null,
      sex: null,
      tel: null,
      email: null,
      birthday: null,
      job_title: null,
      company: null,
      avatar: null,
      role: 'editor',
      created_at: '',
      updated_at: '',
    })
    const testApi = window.__twinTest!
    expect(testApi.getSession()).toMatchObject({
      isSignedIn: true,
      token: 't-1',
      userName: 'ada',
      role: 'editor',
      isOverTime: false,
      language: 'en',
      path: '/login',
    })
    testApi.navigate('/note?x=1')
    expect(window.location.hash).toBe('#/note?x=1')
    expect(testApi.getSession().path).toBe('/note?x=1')
    expect((testApi as unknown as { getEngineSnapshot: unknown }).getEngineSnapshot).toBe(
      engineMember,
    )
  })
})
