import { describe, expect, it } from 'vitest'
import {
  absoluteShareUrl,
  kioskIdleSeconds,
  kioskLinkOf,
  previewAddressOf,
} from './preview-address'

/** The query of a hash address (`…/#/bim4/outPreview?…`), as the preview reads it. */
const queryOf = (link: string) => new URL(link).hash.split('?')[1] ?? ''

describe('preview address', () => {
  const share = absoluteShareUrl('/#/bim4/outPreview?project_id=p-1&project_token=tok', {
    origin: 'https://twin.example',
    pathname: '/',
  })

  it('makes the share path absolute on this site', () => {
    expect(share).toBe('https://twin.example/#/bim4/outPreview?project_id=p-1&project_token=tok')
  })

  it('reads a share link as a preview that is not a kiosk', () => {
    expect(previewAddressOf(queryOf(share))).toEqual({
      projectId: 'p-1',
      projectToken: 'tok',
      isKiosk: false,
      idleSeconds: kioskIdleSeconds.default,
    })
  })

  it('reads the kiosk link back with the idle time it was made with, kept in 5–3600 s', () => {
    expect(previewAddressOf(queryOf(kioskLinkOf(share, 5)))).toMatchObject({
      isKiosk: true,
      idleSeconds: 5,
    })
    expect(previewAddressOf(queryOf(kioskLinkOf(share, 2)))?.idleSeconds).toBe(5)
    expect(previewAddressOf(queryOf(kioskLinkOf(share, 90_000)))?.idleSeconds).toBe(3600)
    expect(previewAddressOf(`${queryOf(share)}&kiosk=1&idle=soon`)?.idleSeconds).toBe(60)
  })

  it('answers null without the project or its token', () => {
    expect(previewAddressOf('project_id=p-1')).toBeNull()
    expect(previewAddressOf('project_token=tok')).toBeNull()
  })
})
