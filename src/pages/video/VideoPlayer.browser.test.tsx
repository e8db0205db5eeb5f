import { i18n } from '@lingui/core'
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import flvSampleUrl from './test-fixtures/testsrc2.flv?url'
import { VideoPlayer } from './VideoPlayer'

/**
 * The surveillance video player in real Chromium (issue 17 §8): the product's copy of the
 * generated HLS sample (public/samples/hls, 6 s of testsrc2 in MPEG-TS segments) plays through
 * hls.js, and the same stream remuxed to FLV (test-fixtures/) through mpegts.js — time advances
 * and the frames drawn are neither black nor all the same. Both play side by side, and a
 * closed player lets go of its stream. An address that cannot play shows its §8 message
 * instead of a player.
 */

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
})

// each test's players go (and stop their streams): players left above would push the next
// test's player out of view, and a player out of view does not start
afterEach(cleanup)

/** The mean brightness and a small fingerprint of the video's current frame. */
function frameOf(video: HTMLVideoElement): { brightness: number; pixels: number[] } {
  const canvas = document.createElement('canvas')
  canvas.width = 64
  canvas.height = 36
  const context = canvas.getContext('2d', { willReadFrequently: true })!
  context.drawImage(video, 0, 0, canvas.width, canvas.height)
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
  let sum = 0
  const pixels: number[] = []
  for (let index = 0; index < data.length; index += 4) {
    const value = (data[index]! + data[index + 1]! + data[index + 2]!) / 3
    sum += value
    pixels.push(Math.round(value))
  }
  return { brightness: sum / (data.length / 4), pixels }
}

/** Waits until the video plays the sample: time advances, frames change and are not black. */
async function expectPlaying(video: HTMLVideoElement): Promise<void> {
  await waitFor(
    () => {
      expect(video.currentTime).toBeGreaterThan(0.3)
      expect(video.videoWidth).toBe(320)
    },
    { timeout: 30_000, interval: 50 },
  )
  const first = frameOf(video)
  const firstTime = video.currentTime
  await waitFor(() => expect(video.currentTime).toBeGreaterThan(firstTime + 0.5), {
    timeout: 30_000,
    interval: 50,
  })
  const second = frameOf(video)
  expect(first.brightness).toBeGreaterThan(20)
  expect(second.brightness).toBeGreaterThan(20)
  const changed = first.pixels.filter((value, index) => value !== second.pixels[index]).length
  expect(changed).toBeGreaterThan(first.pixels.length / 50)
}

/** An HLS and an FLV camera side by side; the FLV one can be closed. */
function Wall() {
  const [isFlvOpen, setFlvOpen] = useState(true)
  return (
    <div style={{ width: 480 }}>
      <VideoPlayer
        title="Yard camera"
        source={{ kind: 'hls', url: '/samples/hls/master.m3u8' }}
        problem={null}
      />
      {isFlvOpen && (
        <VideoPlayer
          title="Pier camera"
          source={{ kind: 'flv', url: flvSampleUrl }}
          problem={null}
          onClose={() => setFlvOpen(false)}
        />
      )}
    </div>
  )
}

describe('VideoPlayer', () => {
  it('plays the sample HLS stream: time advances and the frames change and are not black', async () => {
    renderWithI18n(
      <div style={{ width: 480 }}>
        <VideoPlayer
          title="Gate camera"
          source={{ kind: 'hls', url: '/samples/hls/master.m3u8' }}
          problem={null}
        />
      </div>,
    )
    const video = (await screen.findByLabelText('Gate camera')) as HTMLVideoElement
    await expectPlaying(video)
  })

  it('plays an HTTP-FLV stream through mpegts.js: time advances and the frames change and are not black', async () => {
    renderWithI18n(
      <div style={{ width: 480 }}>
        <VideoPlayer
          title="Dock camera"
          source={{ kind: 'flv', url: flvSampleUrl }}
          problem={null}
        />
      </div>,
    )
    const video = (await screen.findByLabelText('Dock camera')) as HTMLVideoElement
    await expectPlaying(video)
  })

  it('plays HLS and FLV cameras side by side, and closing one stops and frees its stream', async () => {
    renderWithI18n(<Wall />)
    const yard = (await screen.findByLabelText('Yard camera')) as HTMLVideoElement
    const pier = (await screen.findByLabelText('Pier camera')) as HTMLVideoElement
    await Promise.all([expectPlaying(yard), expectPlaying(pier)])
    // the FLV player holds the element through a MediaSource (a blob: address) while it plays
    expect(pier.src).toMatch(/^blob:/)
    await userEvent.click(screen.getByRole('button', { name: 'Close video' }))
    expect(screen.queryByLabelText('Pier camera')).toBeNull()
    // freed: mpegts.js let go of the element, which holds no stream and decodes nothing
    expect(pier.getAttribute('src')).toBeNull()
    expect(pier.readyState).toBe(HTMLMediaElement.HAVE_NOTHING)
    // the other camera keeps its stream
    expect(yard.getAttribute('src')).toMatch(/^blob:/)
  })

  it("shows 'no suitable play URL' for an rtmp:// address, with no player", async () => {
    const view = renderWithI18n(
      <VideoPlayer title="Lobby camera" source={null} problem="video.noSuitablePlayUrl" />,
    )
    expect((await within(view.container).findByRole('alert')).textContent).toBe(
      'no suitable play URL',
    )
    expect(screen.queryByLabelText('Lobby camera')).toBeNull()
  })

  it("shows 'cannot be played now, try later' when the stream does not load", async () => {
    const view = renderWithI18n(
      <VideoPlayer
        title="Missing camera"
        source={{ kind: 'hls', url: '/samples/hls/missing.m3u8' }}
        problem={null}
      />,
    )
    await waitFor(
      () =>
        expect(within(view.container).getByRole('alert').textContent).toBe(
          'cannot be played now, try later',
        ),
      { timeout: 30_000 },
    )
  })

  it("shows 'cannot be played now, try later' when an FLV address holds no FLV", async () => {
    const view = renderWithI18n(
      <VideoPlayer
        title="Broken FLV camera"
        source={{ kind: 'flv', url: '/samples/missing.flv' }}
        problem={null}
      />,
    )
    await waitFor(
      () =>
        expect(within(view.container).getByRole('alert').textContent).toBe(
          'cannot be played now, try later',
        ),
      { timeout: 30_000 },
    )
  })
})
