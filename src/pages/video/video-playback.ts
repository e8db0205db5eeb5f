import Hls from 'hls.js'
import type { PlaySource } from '../../../contract/video'
import { startFlvPlayback } from './flv-playback'
import type { Playback, PlaybackProblem } from './playback'

// the two types live in playback.ts so that flv-playback.ts needs no import of this file
export type { Playback, PlaybackProblem } from './playback'

/**
 * Attaches a stream to a video element (decisions.md "Uploads, video, maps"): HLS through
 * hls.js where Media Source Extensions exist, else the browser's own HLS (Safari, iOS);
 * HTTP-FLV, the fallback for RTMP-origin streams, through mpegts.js (flv-playback.ts).
 * `onProblem` is told once when the stream cannot be played; it never throws.
 */
export function startPlayback(
  video: HTMLVideoElement,
  source: PlaySource,
  onProblem: (problem: PlaybackProblem) => void,
): Playback {
  if (typeof window.MediaSource === 'undefined' && !video.canPlayType) {
    onProblem('video.oldBrowser')
    return { stop() {} }
  }
  // muted: browsers start muted video without a gesture (a wall of cameras opens by itself)
  video.muted = true
  video.playsInline = true
  if (source.kind === 'flv') return startFlvPlayback(video, source.url, onProblem)
  if (Hls.isSupported()) {
    const hls = new Hls({ enableWorker: true, lowLatencyMode: true })
    let isStopped = false
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal && !isStopped) {
        isStopped = true
        hls.destroy()
        onProblem('video.cannotPlay')
      }
    })
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      void video.play().catch(() => {})
    })
    hls.loadSource(source.url)
    hls.attachMedia(video)
    return {
      stop() {
        isStopped = true
        hls.destroy()
      },
    }
  }
  if (video.canPlayType('application/vnd.apple.mpegurl') !== '') {
    const onError = () => onProblem('video.cannotPlay')
    video.addEventListener('error', onError, { once: true })
    video.src = source.url
    void video.play().catch(() => {})
    return {
      stop() {
        video.removeEventListener('error', onError)
        video.pause()
        video.removeAttribute('src')
        video.load()
      },
    }
  }
  onProblem('video.cannotPlay')
  return { stop() {} }
}
