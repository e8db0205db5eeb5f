/**
 * The small Markdown subset CHANGELOG.md uses, parsed to plain blocks so React renders it as
 * elements (no HTML injection): `#` headings, `-`/`*` lists with wrapped lines, paragraphs, and
 * inline `code`, **bold** and [links](url).
 */

/** A block of the document. */
export type MarkdownBlock =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'paragraph'; text: string }

/** A run of inline text. */
export type MarkdownInline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'link'; text: string; href: string }

/** Splits the text into blocks. */
export function parseMarkdownBlocks(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = []
  let paragraph: string[] = []
  let list: string[] | null = null

  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') })
    if (list) blocks.push({ kind: 'list', items: list })
    paragraph = []
    list = null
  }

  for (const rawLine of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.trimEnd()
    const heading = /^(#{1,4})\s+(.*)$/.exec(line)
    const listItem = /^\s*[-*]\s+(.*)$/.exec(line)
    if (!line.trim()) {
      flush()
    } else if (heading) {
      flush()
      blocks.push({
        kind: 'heading',
        level: heading[1]!.length as 1 | 2 | 3 | 4,
        text: heading[2]!.trim(),
      })
    } else if (listItem) {
      if (paragraph.length) flush()
      list ??= []
      list.push(listItem[1]!.trim())
    } else if (list && /^\s+/.test(rawLine)) {
      // An indented line continues the previous list item.
      list[list.length - 1] = `${list[list.length - 1]} ${line.trim()}`
    } else {
      if (list) flush()
      paragraph.push(line.trim())
    }
  }
  flush()
  return blocks
}

const inlinePattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g

/** Only web and in-app links are followed; anything else (javascript:, data:) stays text. */
function isSafeHref(href: string): boolean {
  return /^(https?:\/\/|#\/|\/)/i.test(href)
}

/** Splits a line into inline runs. */
export function parseMarkdownInline(text: string): MarkdownInline[] {
  const runs: MarkdownInline[] = []
  let last = 0
  for (const match of text.matchAll(inlinePattern)) {
    const start = match.index ?? 0
    if (start > last) runs.push({ kind: 'text', text: text.slice(last, start) })
    if (match[1] !== undefined) runs.push({ kind: 'code', text: match[1] })
    else if (match[2] !== undefined) runs.push({ kind: 'strong', text: match[2] })
    else if (match[3] !== undefined && match[4] !== undefined) {
      runs.push(
        isSafeHref(match[4])
          ? { kind: 'link', text: match[3], href: match[4] }
          : { kind: 'text', text: match[3] },
      )
    }
    last = start + match[0].length
  }
  if (last < text.length) runs.push({ kind: 'text', text: text.slice(last) })
  return runs
}

/** One version of the changelog. */
export interface ChangelogVersion {
  heading: string
  blocks: MarkdownBlock[]
}

const languageMarker = /\((ko|zh|en)\)\s*$/

/**
 * Groups the changelog by `##` version and keeps, inside each, only the `###` section marked
 * with the reader's language, else the English one, else everything. The intro before the
 * first version is not part of any version.
 */
export function changelogForLanguage(source: string, language: string): ChangelogVersion[] {
  const versions: ChangelogVersion[] = []
  let current: ChangelogVersion | null = null
  for (const block of parseMarkdownBlocks(source)) {
    if (block.kind === 'heading' && block.level === 2) {
      current = { heading: block.text, blocks: [] }
      versions.push(current)
    } else if (current) current.blocks.push(block)
  }
  return versions.map((version) => ({
    heading: version.heading,
    blocks: pickLanguageSection(version.blocks, language),
  }))
}

function pickLanguageSection(blocks: MarkdownBlock[], language: string): MarkdownBlock[] {
  const sections = new Map<string, MarkdownBlock[]>()
  const shared: MarkdownBlock[] = []
  let sectionLanguage: string | null = null
  for (const block of blocks) {
    if (block.kind === 'heading' && block.level === 3) {
      const marker = languageMarker.exec(block.text)
      sectionLanguage = marker ? marker[1]! : null
      if (sectionLanguage) {
        sections.set(sectionLanguage, [])
        continue
      }
    }
    if (sectionLanguage) sections.get(sectionLanguage)!.push(block)
    else shared.push(block)
  }
  if (sections.size === 0) return shared
  return [...shared, ...(sections.get(language) ?? sections.get('en') ?? [])]
}
