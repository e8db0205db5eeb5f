import { i18n } from '@lingui/core'
import { snapshot } from 'valtio'
import { session } from '../state/session'
import { currentHashLocation, formatHashLocation, navigateHash } from './hash-location'

/** What `window.__twinTest.getSession()` returns: plain data, safe to serialise. */
export interface TestSessionView {
  isSignedIn: boolean
  signinStatus: 0 | 1
  token: string | null
  userName: string | null
  role: string | null
  isOverTime: boolean
  againSecond: number
  language: string
  /** The current route's full path, e.g. `/login?redirect=%2Fnote`. */
  path: string
}

declare global {
  /**
   * The e2e test API. Other parts (the engine bridge) add their own members to this interface
   * and to the same object, so one `window.__twinTest` serves every spec.
   */
  interface TwinTestApi {
    getSession(): TestSessionView
    navigate(path: string): void
  }
  interface Window {
    __twinTest?: TwinTestApi
  }
}

/**
 * Whether this page load exposes the test API. e2e specs run the production build, so the build
 * mode cannot decide; the switch is `localStorage.twinTest === '1'`, which a spec sets before the
 * app loads (`page.addInitScript(() => localStorage.setItem('twinTest', '1'))`). It survives
 * reloads, and a real user never has it.
 */
export function isTestApiEnabled(): boolean {
  try {
    return window.localStorage.getItem('twinTest') === '1'
  } catch {
    return false
  }
}

/** Installs `window.__twinTest.getSession()` and `navigate(path)` when enabled. */
export function installTestApi(): void {
  if (!isTestApiEnabled()) return
  const testApi: Pick<TwinTestApi, 'getSession' | 'navigate'> = {
    getSession() {
      const state = snapshot(session)
      return {
        isSignedIn: Boolean(state.token) && state.signinStatus === 1,
        signinStatus: state.signinStatus,
        token: state.token,
        userName: state.userData?.name ?? null,
        role: state.userData?.role ?? null,
        isOverTime: state.isOverTime,
        againSecond: state.againSecond,
        language: i18n.locale,
        path: formatHashLocation(currentHashLocation()),
      }
    },
    navigate(path: string) {
      navigateHash(path)
    },
  }
  window.__twinTest = Object.assign(window.__twinTest ?? {}, testApi) as TwinTestApi
}
