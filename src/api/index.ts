import { createApiClient } from './client'
import { previewProjectToken } from './preview-token'
import { sessionLink } from './session-link'

/**
 * The app's `/web/` client: sends the session's token and reports '2011' (SPEC §7, §8) through
 * the session link, which src/state/api-session.ts connects.
 */
export const api = createApiClient({
  getToken: sessionLink.token,
  getProjectToken: previewProjectToken,
  onSessionTimeout: sessionLink.reportSessionTimeout,
})

export { ApiError, type ApiClient } from './client'
export { connectSession, type SessionLink } from './session-link'
