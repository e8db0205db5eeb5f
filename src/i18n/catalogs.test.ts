import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** msgid → msgstr of one of the console's .po catalogs (single-line entries, as lingui writes). */
function readCatalog(locale: string): Map<string, string> {
  const text = readFileSync(join(process.cwd(), 'src/i18n/locales', locale, 'messages.po'), 'utf8')
  const entries = new Map<string, string>()
  for (const match of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/gm)) {
    if (match[1]) entries.set(match[1], match[2] ?? '')
  }
  return entries
}

/**
 * The arguments a message names: `{name}` and `{name, plural, …}`, but not the text of a plural
 * branch (`one {year}`), which a language words its own way (ko and zh have only `other`).
 */
const placeholders = (message: string) =>
  [...message.matchAll(/(?<!(?:zero|one|two|few|many|other|=\d+)\s*)\{(\w+)[,}]/g)]
    .map((match) => match[1])
    .sort()

/** Script each language must be written in, so no English is left on its screens. */
const scripts: Record<string, RegExp> = { ko: /\p{Script=Hangul}/u, zh: /\p{Script=Han}/u }
/** Names that read the same in every language. */
const untranslatable = new Set(['POI', 'MB'])

/**
 * One word per idea in each language: a term the glossary chose, and the variants it replaced.
 * A person reading "배경 지도를 불러오지 못했습니다 … 베이스맵 설정" cannot tell they are one thing.
 */
const glossary: Record<string, { term: string; not: RegExp }[]> = {
  ko: [{ term: '배경 지도', not: /베이스\s?맵/ }],
}

describe('console catalogs (src/i18n/locales)', () => {
  const english = readCatalog('en')

  it('has the console strings', () => {
    expect(english.size).toBeGreaterThan(150)
    expect(english.has('Login timed out, please log in again')).toBe(true)
  })

  it.each(['ko', 'zh'])('translates every string into %s, keeping its placeholders', (locale) => {
    const translated = readCatalog(locale)
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [source, translation] of translated) {
      expect(translation, source).not.toBe('')
      expect(placeholders(translation), source).toEqual(placeholders(source))
      const hasWords = /[A-Za-z]/.test(source.replace(/\{\w+\}/g, ''))
      if (hasWords && !untranslatable.has(source)) {
        expect(translation, source).toMatch(scripts[locale]!)
      }
    }
  })

  it.each(Object.entries(glossary))('uses one term per idea in %s', (locale, terms) => {
    for (const [source, translation] of readCatalog(locale)) {
      for (const { term, not } of terms) {
        expect(translation, `${source}: write "${term}"`).not.toMatch(not)
      }
    }
  })
})
