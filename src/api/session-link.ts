/**
 * What the app's /web/ clients need from the session, without knowing the session: the token
 * to send, and where to report a '2011' answer. src/state/api-session.ts connects it at start;
 * until then calls go without a token and a report goes nowhere.
 */
export interface SessionLink {
  /** The user token for the `Token` header, or null when signed out. */
  token(): string | null
  /** Told of every '2011' answer; the session decides what to do (once). */
  reportSessionTimeout(): void
}

const unconnected: SessionLink = { token: () => null, reportSessionTimeout: () => {} }
let connected: SessionLink = unconnected

/** Connects the clients to the session; returns the function that disconnects them (tests). */
export function connectSession(link: SessionLink): () => void {
  connected = link
  return () => {
    if (connected === link) connected = unconnected
  }
}

/** The link as the clients read it: always the one connected now. */
export const sessionLink: SessionLink = {
  token: () => connected.token(),
  reportSessionTimeout: () => connected.reportSessionTimeout(),
}
