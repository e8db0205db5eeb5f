import { Trans } from '@lingui/react/macro'

/** Props of {@link EmbeddedFrame}. */
export interface EmbeddedFrameProps {
  /** The product's page. */
  src: string
  /** The frame's accessible name. */
  title: string
}

/**
 * An embedded product's page, filling the work area, with a way out when its server refuses to
 * be framed (the browser then shows an empty frame and tells the page nothing).
 */
export function EmbeddedFrame({ src, title }: EmbeddedFrameProps) {
  return (
    <div className="ts-tb-frame">
      <p className="ts-tb-frame__bar">
        <a href={src} target="_blank" rel="noreferrer noopener">
          <Trans>Open in a new tab</Trans>
        </a>
      </p>
      <iframe
        className="ts-tb-frame__page"
        src={src}
        title={title}
        // the product runs its own scripts and sign-in; it may not navigate the console
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads"
        referrerPolicy="no-referrer"
      />
    </div>
  )
}
