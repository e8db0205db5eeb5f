import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** msgid → msgstr of a .po file (single-line entries, as lingui writes them). */
function readCatalog(locale: string): Map<string, string> {
  // Vitest runs from the repository root.
  const text = readFileSync(join(process.cwd(), 'src/ui/locales', `${locale}.po`), 'utf8')
  const entries = new Map<string, string>()
  for (const match of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/gm)) {
    if (match[1]) entries.set(match[1], match[2] ?? '')
  }
  return entries
}

const placeholders = (message: string) =>
  [...message.matchAll(/\{(\w+)[,}]/g)].map((match) => match[1]).sort()

describe('widget kit catalogs', () => {
  const english = readCatalog('en')

  it('has strings to translate', () => {
    expect(english.size).toBeGreaterThan(40)
  })

  it.each(['ko', 'zh'])('translates every string into %s, keeping its placeholders', (locale) => {
    const translated = readCatalog(locale)
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [source, translation] of translated) {
      expect(translation, source).not.toBe('')
      expect(placeholders(translation), source).toEqual(placeholders(source))
    }
  })
})
