import { Trans, useLingui } from '@lingui/react/macro'
import { Fragment, type ReactNode } from 'react'
import changelogSource from '../../../CHANGELOG.md?raw'
import { changelogForLanguage, type MarkdownBlock, parseMarkdownInline } from './markdown'
import './note.css'

function Inline({ text }: { text: string }) {
  return (
    <>
      {parseMarkdownInline(text).map((run, index) => {
        const key = `${index}-${run.kind}`
        if (run.kind === 'code') return <code key={key}>{run.text}</code>
        if (run.kind === 'strong') return <strong key={key}>{run.text}</strong>
        if (run.kind === 'link') {
          const isExternal = /^https?:/i.test(run.href)
          return (
            <a
              key={key}
              href={run.href}
              {...(isExternal ? { target: '_blank', rel: 'noreferrer noopener' } : {})}
            >
              {run.text}
            </a>
          )
        }
        return <Fragment key={key}>{run.text}</Fragment>
      })}
    </>
  )
}

function Block({ block }: { block: MarkdownBlock }): ReactNode {
  if (block.kind === 'list') {
    return (
      <ul>
        {block.items.map((item, index) => (
          // Items of a changelog never reorder, so the position is a stable key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index}>
            <Inline text={item} />
          </li>
        ))}
      </ul>
    )
  }
  if (block.kind === 'heading') {
    return (
      <h3>
        <Inline text={block.text} />
      </h3>
    )
  }
  return (
    <p>
      <Inline text={block.text} />
    </p>
  )
}

/** `/note`: the version notes of CHANGELOG.md (bundled at build time) in the reader's language. */
export function NotePage() {
  const { i18n } = useLingui()
  const versions = changelogForLanguage(changelogSource, i18n.locale)
  return (
    <section className="ts-note-page">
      <h1 className="ts-page-title">
        <Trans>Version notes</Trans>
      </h1>
      {versions.map((version) => (
        <article key={version.heading} className="ts-note-page__version">
          <h2>
            <Inline text={version.heading} />
          </h2>
          {version.blocks.map((block, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks of a bundled file never reorder
            <Block key={index} block={block} />
          ))}
        </article>
      ))}
    </section>
  )
}
