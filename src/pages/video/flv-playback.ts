import type Mpegts from 'mpegts.js'
import type { Playback, PlaybackProblem } from './playback'

/**
 * HTTP-FLV through mpegts.js, the fallback for RTMP-origin streams (decisions.md "Uploads,
 * video, maps"): mpegts.js fetches the FLV, remuxes it to fragmented MP4 and feeds it to the
 * video element through Media Source Extensions. The library is loaded on first use, so a
 * console that shows no FLV camera never downloads it. `onProblem` is told once when the
 * stream cannot be played; `stop()` frees the player (its connection, remuxer and buffers),
 * also when it is called before the library has arrived.
 */
export function startFlvPlayback(
  video: HTMLVideoElement,
  url: string,
  onProblem: (problem: PlaybackProblem) => void,
): Playback {
  let isStopped = false
  let player: Mpegts.Player | null = null

  const free = () => {
    const current = player
    player = null
    // destroy() unloads (closes the connection, drops the remuxer) and detaches the element,
    // which lets go of its MediaSource and decodes nothing any more
    current?.destroy()
  }
  const fail = () => {
    if (isStopped) return
    isStopped = true
    free()
    onProblem('video.cannotPlay')
  }

  import('mpegts.js')
    .then(({ default: mpegts }) => {
      if (isStopped) return
      // its progress notes would fill the console of every camera wall; warnings and errors stay
      mpegts.LoggingControl.enableVerbose = false
      mpegts.LoggingControl.enableDebug = false
      mpegts.LoggingControl.enableInfo = false
      if (!mpegts.getFeatureList().mseLivePlayback) {
        fail()
        return
      }
      // surveillance streams are live: no duration, no seeking, play from what arrives
      const created = mpegts.createPlayer(
        { type: 'flv', url: new URL(url, window.location.href).href, isLive: true },
        { enableWorker: false, lazyLoad: false, autoCleanupSourceBuffer: true },
      )
      player = created
      created.on(mpegts.Events.ERROR, fail)
      // a body too short to tell what it is (an HTML page, a few bytes) raises no error: a
      // stream that ended without showing any media could not be played either
      let hasMedia = false
      created.on(mpegts.Events.MEDIA_INFO, () => {
        hasMedia = true
      })
      created.on(mpegts.Events.LOADING_COMPLETE, () => {
        if (!hasMedia) fail()
      })
      created.attachMediaElement(video)
      created.load()
      void Promise.resolve(created.play()).catch(() => {})
    })
    .catch(fail)

  return {
    stop() {
      isStopped = true
      free()
    },
  }
}
