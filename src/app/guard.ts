import { formatHashLocation, type HashLocation } from './hash-location'
import { matchAppRoute, resolveRedirects } from './route-table'

/** What the guard needs from the session and the server; the app wires the real ones. */
export interface GuardDependencies {
  /** True when both a token and the signed-in flag exist (rule 5). */
  isSignedIn(): boolean
  /** True when the user record is already held. */
  hasUserData(): boolean
  /** Calls `/refreshToken` and stores the new token when the answer is OK. */
  refreshToken(): Promise<void>
  /** Calls `/user/findUserName` and stores the user on success. */
  fetchUserData(): Promise<void>
  /** Calls `/logout` and clears the session whatever the server says. */
  signOut(): Promise<void>
}

/** The guard's verdict for one navigation. */
export type GuardOutcome =
  | { kind: 'proceed' }
  /** Go elsewhere instead, replacing the history entry. */
  | { kind: 'redirect'; to: string }

/** The path every "go and sign in" ends on. */
export const signInPath = '/login'

/** The sign-in path carrying the wanted full path, so sign-in can return there (rule 6). */
export function signInPathFor(wanted: HashLocation): string {
  return `${signInPath}?redirect=${encodeURIComponent(formatHashLocation(wanted))}`
}

/**
 * Where to go after signing in: the `redirect` query if it is a path inside this app, else the
 * home page. Anything not starting with a single `/` is refused, so a crafted link cannot send a
 * freshly signed-in user to another site.
 */
export function redirectTargetAfterSignIn(search: string): string {
  const target = new URLSearchParams(search).get('redirect')
  if (!target?.startsWith('/') || target.startsWith('//')) return '/'
  const { route } = matchAppRoute(target.split('?')[0] ?? '/')
  if (route.id === 'login' || route.id === 'logout') return '/'
  return target
}

/**
 * SPEC §2 "Navigation guard", rules in order. `fromPath` is the path the user comes from; it is
 * `/` on the first navigation of a page load, like vue-router's start location.
 */
export async function guardNavigation(
  to: HashLocation,
  fromPath: string,
  dependencies: GuardDependencies,
): Promise<GuardOutcome> {
  // Redirect records apply before any guard rule, so the rules judge the final page.
  const resolvedPath = resolveRedirects(to.path)
  if (resolvedPath !== to.path) {
    return { kind: 'redirect', to: formatHashLocation({ path: resolvedPath, search: to.search }) }
  }
  const { route } = matchAppRoute(to.path)

  // 1. The public preview passes freely.
  if (route.skipsGuard) return { kind: 'proceed' }

  // 2. A scene-editor page other than poi opened straight from the root path (a fresh load or a
  //    pasted link) starts at poi, because the other editor pages need the scene poi loads.
  if (to.path.toLowerCase().startsWith('/bim4/') && route.id !== 'bim4Poi' && fromPath === '/') {
    return { kind: 'redirect', to: '/bim4/poi' }
  }

  // 3. The logout route signs out, then goes to sign-in.
  if (route.isLogout) {
    await dependencies.signOut()
    return { kind: 'redirect', to: signInPath }
  }

  // 4. Routes flagged as no-auth pass.
  if (route.isPublic) return { kind: 'proceed' }

  // 5. Signed in: refresh the token in the background, fetch the user if missing, proceed.
  if (dependencies.isSignedIn()) {
    dependencies.refreshToken().catch(() => {
      // A failed refresh keeps the current token; a '2011' answer is handled by the API client.
    })
    if (!dependencies.hasUserData()) {
      try {
        await dependencies.fetchUserData()
      } catch {
        // The page can still render; a '2011' answer has already sent the user to sign-in.
      }
    }
    return { kind: 'proceed' }
  }

  // 6. Not signed in: sign in first, then come back to the wanted full path.
  return { kind: 'redirect', to: signInPathFor(to) }
}
