import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { markSessionTimedOut } from '../state/session'
import { toast } from '../ui/toast/toast-store'
import { signInPathFor } from './guard'
import { currentHashLocation, navigateHash } from './hash-location'
import { isPublicPath } from './route-table'

/**
 * SPEC §8 "Session timeout": the first '2011' answer marks the session timed out, warns once and
 * replaces the route with sign-in, unless the page needs no sign-in (a public preview keeps
 * working). Later '2011' answers of the same burst do nothing.
 */
export function handleSessionTimeout(): void {
  if (!markSessionTimedOut()) return
  toast.warning(i18n._(msg`Login timed out, please log in again`))
  const current = currentHashLocation()
  if (!isPublicPath(current.path)) navigateHash(signInPathFor(current), { replace: true })
}
