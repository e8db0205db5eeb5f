import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { connectApiToSession } from '../state/api-session'
import { toast } from '../ui/toast/toast-store'
import { signInPathFor } from './guard'
import { currentHashLocation, navigateHash } from './hash-location'
import { isPublicPath } from './route-table'

/**
 * SPEC §8 "Session timeout", the app's part: after the session ended on the first '2011' of a
 * burst (src/state/api-session.ts), warns once and replaces the route with sign-in, unless the
 * page needs no sign-in (a public preview keeps working).
 */
export function announceSessionTimeout(): void {
  toast.warning(i18n._(msg`Login timed out, please log in again`))
  const current = currentHashLocation()
  if (!isPublicPath(current.path)) navigateHash(signInPathFor(current), { replace: true })
}

/**
 * Connects the /web/ clients to the session and the app: they send the session's token, and
 * the first '2011' of a burst ends the session and is announced. Returns the disconnect.
 */
export function connectSessionTimeout(): () => void {
  return connectApiToSession(announceSessionTimeout)
}
