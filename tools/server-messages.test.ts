import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  formatServerMessage,
  isMessageId,
  type MessageId,
  serverMessages,
} from '../contract/messages'

const root = join(import.meta.dirname, '..')

/** msgid → msgstr of a console catalogue (single-line entries, as lingui writes them). */
function readCatalog(locale: string): Map<string, string> {
  const text = readFileSync(join(root, 'src/i18n/locales', locale, 'messages.po'), 'utf8')
  const entries = new Map<string, string>()
  for (const match of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/gm)) {
    if (match[1]) entries.set(JSON.parse(`"${match[1]}"`), JSON.parse(`"${match[2] ?? ''}"`))
  }
  return entries
}

/** Every non-test TypeScript file under a folder. */
function sourceFiles(folder: string): string[] {
  const files: string[] = []
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path))
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) files.push(path)
  }
  return files
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()
const ids = Object.keys(serverMessages) as MessageId[]

describe('server message catalogue (contract/messages.ts)', () => {
  it.each(['en', 'ko', 'zh'])('has a %s text for every message id', (locale) => {
    const catalog = readCatalog(locale)
    const script = { en: /[A-Za-z]/, ko: /\p{Script=Hangul}/u, zh: /\p{Script=Han}/u }[locale]!
    const untranslated = ids.filter((id) => {
      const text = catalog.get(serverMessages[id])
      return (
        !text ||
        !script.test(text) ||
        placeholders(text).join() !== placeholders(serverMessages[id]).join()
      )
    })
    expect(
      untranslated,
      `run npm run i18n:server and npm run i18n:extract, then translate`,
    ).toEqual([])
  })

  it('gives the console the same English text for every id (src/i18n/server-message-texts.ts)', () => {
    const generated = readFileSync(join(root, 'src/i18n/server-message-texts.ts'), 'utf8')
    const texts = new Map<string, string>()
    for (const match of generated.matchAll(
      /'([\w.]+)': msg\(\{\s*message:\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"),?\s*\}\)/g,
    )) {
      const literal = match[2]!
      texts.set(match[1]!, literal.startsWith('"') ? JSON.parse(literal) : literal.slice(1, -1))
    }
    for (const id of ids)
      expect(texts.get(id), `${id}: run npm run i18n:server`).toBe(serverMessages[id])
    expect(texts.size).toBe(ids.length)
  })

  it('keeps templates safe for ICU: no apostrophe next to a placeholder', () => {
    for (const id of ids) expect(serverMessages[id], id).not.toMatch(/'\{|\}'/)
  })

  it('fills in parameters and names a missing one', () => {
    expect(formatServerMessage('tileset.ambiguousRoots', { names: 'a.json, b.json' })).toContain(
      'root tileset: a.json, b.json.',
    )
    expect(formatServerMessage('region.notFound')).toBe('No region has the code {code}.')
  })

  it('is the only source of server messages: every id used exists, no AppError takes English', () => {
    const unknown: string[] = []
    const rawText: string[] = []
    for (const file of [
      ...sourceFiles(join(root, 'server')),
      ...sourceFiles(join(root, 'contract')),
    ]) {
      // comments may show made-up examples; only code counts
      const text = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
      const where = file.slice(root.length + 1)
      // ids named where messages are made: AppError, fieldError, serverMessage, zodMessage, limits
      const calls =
        /(?:new AppError|fieldError|rateLimitedError|serverMessage|zodMessage|\.take)\(([^)]*)\)/gs
      for (const call of text.matchAll(calls)) {
        for (const literal of call[1]!.matchAll(/'([a-z][A-Za-z]*\.[A-Za-z0-9.]+)'/g)) {
          if (!isMessageId(literal[1])) unknown.push(`${where}: ${literal[1]}`)
        }
      }
      for (const call of text.matchAll(/new AppError\(\s*[^,]+,\s*([`'"])(.*?)\1/gs)) {
        if (!isMessageId(call[2])) rawText.push(`${where}: ${call[2]!.slice(0, 60)}`)
      }
    }
    expect(unknown).toEqual([])
    expect(rawText).toEqual([])
  })
})
