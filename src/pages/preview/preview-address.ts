/**
 * The public preview's address (SPEC §2 `/bim4/outPreview?project_id=…&project_token=…`, issue
 * 19), read by the preview and written by the visit panels. docs/api/preview.md lists its query.
 */

/** Kiosk: seconds without interaction before the captures' tour starts (`&idle=`). */
export const kioskIdleSeconds = { min: 5, max: 3600, default: 60 } as const

/** What the preview's address says. */
export interface PreviewAddress {
  projectId: string
  projectToken: string
  isKiosk: boolean
  /** Kiosk: seconds without interaction before the tour starts (5–3600, default 60). */
  idleSeconds: number
}

/** Whole seconds in the kiosk's idle range; the default for anything not a number. */
function idleSecondsOf(value: number): number {
  if (!Number.isFinite(value)) return kioskIdleSeconds.default
  return Math.min(kioskIdleSeconds.max, Math.max(kioskIdleSeconds.min, Math.round(value)))
}

/** Reads the preview's query; null when the address lacks the project or its token. */
export function previewAddressOf(search: string): PreviewAddress | null {
  const query = new URLSearchParams(search)
  const projectId = query.get('project_id')?.trim() ?? ''
  const projectToken = query.get('project_token')?.trim() ?? ''
  if (!projectId || !projectToken) return null
  return {
    projectId,
    projectToken,
    isKiosk: query.get('kiosk') === '1',
    idleSeconds: idleSecondsOf(Number(query.get('idle') ?? kioskIdleSeconds.default)),
  }
}

/** The kiosk variant of a share link: full screen, its tour after `idleSeconds` alone. */
export function kioskLinkOf(shareLink: string, idleSeconds: number): string {
  return `${shareLink}&kiosk=1&idle=${idleSecondsOf(idleSeconds)}`
}

/** The absolute address of a share path (`/#/bim4/outPreview?…`) on this site. */
export function absoluteShareUrl(
  sharePath: string,
  location: Pick<Location, 'origin' | 'pathname'> = window.location,
): string {
  const base = `${location.origin}${location.pathname}`
  return sharePath.startsWith('/#') ? `${base}${sharePath.slice(1)}` : `${base}${sharePath}`
}
