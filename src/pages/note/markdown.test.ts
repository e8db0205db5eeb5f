import { describe, expect, it } from 'vitest'
import changelog from '../../../CHANGELOG.md?raw'
import { changelogForLanguage, parseMarkdownBlocks, parseMarkdownInline } from './markdown'

describe('changelog markdown', () => {
  it('parses headings, wrapped list items and paragraphs', () => {
    expect(parseMarkdownBlocks('# T\n\nIntro\ntext.\n\n- one\n  wrapped\n- two\n')).toEqual([
      { kind: 'heading', level: 1, text: 'T' },
      { kind: 'paragraph', text: 'Intro text.' },
      { kind: 'list', items: ['one wrapped', 'two'] },
    ])
  })

  it('parses inline code, bold and links, and keeps unsafe links as text', () => {
    expect(
      parseMarkdownInline('a `b` **c** [d](https://x.example) [e](javascript:alert(1))'),
    ).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', text: 'c' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'd', href: 'https://x.example' },
      { kind: 'text', text: ' ' },
      { kind: 'text', text: 'e' },
      { kind: 'text', text: ')' },
    ])
  })

  it("keeps only the reader's language section of each version, falling back to English", () => {
    const source = '## 1.0\n\n### English (en)\n\n- hello\n\n### 한국어 (ko)\n\n- 안녕\n'
    expect(changelogForLanguage(source, 'ko')).toEqual([
      { heading: '1.0', blocks: [{ kind: 'list', items: ['안녕'] }] },
    ])
    expect(changelogForLanguage(source, 'zh')[0]?.blocks).toEqual([
      { kind: 'list', items: ['hello'] },
    ])
  })

  it('has a 0.1.0 entry in every language in the project CHANGELOG.md', () => {
    for (const language of ['ko', 'zh', 'en']) {
      const versions = changelogForLanguage(changelog, language)
      expect(versions[0]?.heading).toMatch(/^0\.1\.0/)
      const english = changelogForLanguage(changelog, 'en')[0]?.blocks
      if (language !== 'en') expect(versions[0]?.blocks).not.toEqual(english)
      expect(versions[0]?.blocks.length).toBeGreaterThan(0)
    }
  })
})
