import { connectSession } from '../api/session-link'
import { markSessionTimedOut, session } from './session'

/**
 * Connects the /web/ clients (src/api/) to the session: they send its token, and the session
 * reacts to the '2011' they report by ending itself, once per burst (SPEC §4 "The state is set
 * once"); `onTimedOut` runs only for that first report (the app warns and goes to sign-in).
 * Returns the function that disconnects them.
 */
export function connectApiToSession(onTimedOut: () => void): () => void {
  return connectSession({
    token: () => session.token,
    reportSessionTimeout: () => {
      if (markSessionTimedOut()) onTimedOut()
    },
  })
}
