/**
 * The project token of a public preview (`/bim4/outPreview?project_token=…`), sent by the app's
 * client in the `ProjectToken` header while the preview is open, so every read the scene makes
 * (project, models, POIs, style, captures) works without signing in. Null everywhere else.
 */
let current: string | null = null

/** The preview's project token, or null. */
export function previewProjectToken(): string | null {
  return current
}

/** Sets (or with null clears) the preview's project token. */
export function setPreviewProjectToken(token: string | null): void {
  current = token
}
