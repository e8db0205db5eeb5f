import { handleSessionTimeout } from '../app/session-timeout'
import { session } from '../state/session'
import { createApiClient } from './client'

/** The app's `/web/` client: sends the session token and handles '2011' (SPEC §7, §8). */
export const api = createApiClient({
  getToken: () => session.token,
  onSessionTimeout: handleSessionTimeout,
})

export { ApiError, type ApiClient } from './client'
