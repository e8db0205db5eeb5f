import { describe, expect, it } from 'vitest'
import { languageFromCookie } from './languages'

describe('languageFromCookie', () => {
  it('starts in Korean without a cookie', () => {
    expect(languageFromCookie('')).toBe('ko')
  })
  it('reads the language cookie among others', () => {
    expect(languageFromCookie('a=1; language=zh; b=2')).toBe('zh')
  })
  it('ignores an unknown language', () => {
    expect(languageFromCookie('language=fr')).toBe('ko')
  })
})
