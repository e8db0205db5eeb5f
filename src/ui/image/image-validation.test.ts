import { describe, expect, it } from 'vitest'
import { imageUploadLimitBytes, validateImageFile } from './image-validation'

const file = (name: string, type: string, size: number) => ({ name, type, size })

describe('validateImageFile', () => {
  it('accepts JPEG and PNG under 2 MB', () => {
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'IMAGE/PNG'])
      expect(validateImageFile(file('cover', type, 1024))).toEqual({ isValid: true })
    expect(
      validateImageFile(file('cover.png', 'image/png', imageUploadLimitBytes - 1)).isValid,
    ).toBe(true)
  })

  it('refuses 2 MB and more for size', () => {
    expect(imageUploadLimitBytes).toBe(2 * 1024 * 1024)
    expect(validateImageFile(file('big.jpg', 'image/jpeg', imageUploadLimitBytes))).toEqual({
      isValid: false,
      reason: 'size',
    })
  })

  it('refuses other types for type, before looking at the size', () => {
    for (const type of ['image/gif', 'image/webp', 'image/svg+xml', 'application/pdf'])
      expect(validateImageFile(file('x', type, 10))).toEqual({ isValid: false, reason: 'type' })
    expect(validateImageFile(file('huge.gif', 'image/gif', imageUploadLimitBytes * 5))).toEqual({
      isValid: false,
      reason: 'type',
    })
  })

  it('judges by extension when the browser reports no type', () => {
    expect(validateImageFile(file('Photo.JPEG', '', 10)).isValid).toBe(true)
    expect(validateImageFile(file('scan.jpg', '', 10)).isValid).toBe(true)
    expect(validateImageFile(file('model.sbm', '', 10))).toEqual({ isValid: false, reason: 'type' })
  })

  it('does not trust an image extension over a wrong content type', () => {
    expect(validateImageFile(file('fake.png', 'text/html', 10))).toEqual({
      isValid: false,
      reason: 'type',
    })
  })
})
