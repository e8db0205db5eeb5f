import { i18n } from '@lingui/core'
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { type ComponentProps, useState } from 'react'
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

/** The product's HLS sample and its FLV remux. */
const hlsSample = { kind: 'hls', url: '/samples/hls/master.m3u8' } as const
const flvSample = { kind: 'flv', url: flvSampleUrl } as const

/** One camera's player in a wall-sized box. */
function renderCamera(title: string, source: ComponentProps<typeof VideoPlayer>['source']) {
  return renderWithI18n(
    <div style={{ width: 480 }}>
      <VideoPlayer title={title} source={source} problem={null} />
    </div>,
  )
}

/** An HLS and an FLV camera side by side; the FLV one can be closed. */
function Wall() {
  const [isFlvOpen, setFlvOpen] = useState(true)
  return (
    <div style={{ width: 480 }}>
      <VideoPlayer title="Yard camera" source={hlsSample} problem={null} />
      {isFlvOpen && (
        <VideoPlayer
          title="Pier camera"
          source={flvSample}
          problem={null}
          onClose={() => setFlvOpen(false)}
        />
      )}
    </div>
  )
}

describe('VideoPlayer', () => {
  it.each([
    { stream: 'the sample HLS stream', title: 'Gate camera', source: hlsSample },
    { stream: 'an HTTP-FLV stream through mpegts.js', title: 'Dock camera', source: flvSample },
  ])(
    'plays $stream: time advances and the frames change and are not black',
    async ({ title, source }) => {
      renderCamera(title, source)
      await expectPlaying((await screen.findByLabelText(title)) as HTMLVideoElement)
    },
  )

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

  it.each([
    {
      when: 'the stream does not load',
      title: 'Missing camera',
      source: { kind: 'hls', url: '/samples/hls/missing.m3u8' } as const,
    },
    {
      when: 'an FLV address holds no FLV',
      title: 'Broken FLV camera',
      source: { kind: 'flv', url: '/samples/missing.flv' } as const,
    },
  ])("shows 'cannot be played now, try later' when $when", async ({ title, source }) => {
    const view = renderCamera(title, source)
    await waitFor(
      () =>
        expect(within(view.container).getByRole('alert').textContent).toBe(
          'cannot be played now, try later',
        ),
      { timeout: 30_000 },
    )
  })
})
