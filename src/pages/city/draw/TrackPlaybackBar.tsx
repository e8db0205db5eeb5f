import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { Button } from '../../../ui'
import { type TrackPlayback, trackingStore } from './tracking-store'

/** One step of playback: this often the played position moves on by the rate. */
export const playbackStepMs = 500

const rates: TrackPlayback['rate'][] = [1, 2, 3, 5]

/**
 * The track playback timeline: a slider over the track's positions (the time of the one shown
 * beside it), play and pause, the rate (×1 ×2 ×3 ×5, SPEC §9) and close. The map shows the
 * played position with the track before it as its trail (tracking-store `markersOf`).
 */
export function TrackPlaybackBar() {
  const { t, i18n } = useLingui()
  const { playback, objects } = useSnapshot(trackingStore)
  const isPlaying = playback?.isPlaying ?? false

  useEffect(() => {
    if (!isPlaying) return
    const timer = setInterval(() => {
      const current = trackingStore.playback
      if (!current) return
      const last = current.positions.length - 1
      current.index = Math.min(current.index + current.rate, last)
      if (current.index === last) current.isPlaying = false
    }, playbackStepMs)
    return () => clearInterval(timer)
  }, [isPlaying])

  if (!playback) return null
  const position = playback.positions[playback.index]
  const name = objects.find((object) => object.id === playback.objectId)?.name ?? ''
  const time = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'medium' })
  return (
    <section className="ts-boxed" aria-label={t`Track playback`} data-testid="track-playback">
      <h3 className="ts-city-details__title">
        <Trans>Track of {name}</Trans>
      </h3>
      <input
        type="range"
        className="ts-draw__timeline"
        aria-label={t`Time`}
        min={0}
        max={playback.positions.length - 1}
        value={playback.index}
        onChange={(event) => {
          if (trackingStore.playback) trackingStore.playback.index = Number(event.target.value)
        }}
      />
      <p className="ts-region__item-measure" data-testid="track-playback-time">
        {position ? time.format(new Date(position.at)) : ''} ({playback.index + 1}/
        {playback.positions.length})
      </p>
      <div className="ts-city-details__actions">
        <Button
          variant="primary"
          onClick={() => {
            const current = trackingStore.playback
            if (!current) return
            // Play at the end starts again from the beginning.
            if (!current.isPlaying && current.index === current.positions.length - 1)
              current.index = 0
            current.isPlaying = !current.isPlaying
          }}
        >
          {isPlaying ? <Trans>Pause</Trans> : <Trans>Play</Trans>}
        </Button>
        <fieldset className="ts-draw__types" aria-label={t`Rate`}>
          {rates.map((rate) => (
            <Button
              key={rate}
              aria-pressed={playback.rate === rate}
              variant={playback.rate === rate ? 'primary' : 'secondary'}
              onClick={() => {
                if (trackingStore.playback) trackingStore.playback.rate = rate
              }}
            >
              ×{rate}
            </Button>
          ))}
        </fieldset>
        <Button onClick={() => (trackingStore.playback = null)}>
          <Trans>Close</Trans>
        </Button>
      </div>
    </section>
  )
}
