import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import type { MessageId } from '../../../contract/messages'
import type { PlaySource, StreamProblem } from '../../../contract/video'
import { serverMessageTexts } from '../../i18n/server-message-texts'
import { type PlaybackProblem, startPlayback } from './video-playback'
import './video.css'

/**
 * One surveillance video player (SPEC §2): plays `source` while it is on screen and stops and
 * frees the stream when it is closed or scrolled out of view (several run at once on a wall
 * of cameras). A stream that cannot play shows the §8 message instead.
 */
export function VideoPlayer(props: {
  title: string
  source: PlaySource | null
  /** The server's reason when `source` is null. */
  problem: StreamProblem | null
  onClose?: () => void
}) {
  const { t, i18n } = useLingui()
  const video = useRef<HTMLVideoElement>(null)
  const frame = useRef<HTMLDivElement>(null)
  const [isVisible, setIsVisible] = useState(false)
  const [problem, setProblem] = useState<PlaybackProblem | null>(null)
  const { source } = props

  useEffect(() => {
    const element = frame.current
    if (element === null) return
    if (typeof IntersectionObserver === 'undefined') {
      setIsVisible(true)
      return
    }
    const observer = new IntersectionObserver((entries) => {
      setIsVisible(entries.some((entry) => entry.isIntersecting))
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    const element = video.current
    if (element === null || source === null || !isVisible) return
    setProblem(null)
    const playback = startPlayback(element, source, setProblem)
    return () => playback.stop()
  }, [source, isVisible])

  const shownProblem: MessageId | null =
    source === null ? (props.problem ?? 'video.noSource') : problem
  return (
    <figure className="ts-video" ref={frame} data-testid="video-player">
      <figcaption className="ts-video__title">
        <span>{props.title}</span>
        {props.onClose && (
          <button
            type="button"
            className="ts-video__close"
            aria-label={t`Close video`}
            onClick={props.onClose}
          >
            ×
          </button>
        )}
      </figcaption>
      {shownProblem === null ? (
        // biome-ignore lint/a11y/useMediaCaption: surveillance streams carry no captions
        <video ref={video} className="ts-video__screen" aria-label={props.title} />
      ) : (
        <p className="ts-video__problem" role="alert">
          {i18n._(serverMessageTexts[shownProblem])}
        </p>
      )}
    </figure>
  )
}
