import { z } from 'zod'
import { recordIdSchema } from './common'
import type { MessageId } from './messages'
import { webRoute } from './route'

/**
 * Surveillance video (issue 17 §8; SPEC §2 "Surveillance video player", §8 video messages;
 * decisions.md "Uploads, video, maps"). A camera is a POI whose `stream_url` custom property
 * (the Camera template's static attribute) holds a stream address. The server reads each
 * address once, for everyone, into how the browser plays it: HLS (hls.js, or the browser's own
 * HLS), HTTP-FLV (the fallback for RTMP-origin streams, mpegts.js), or a §8 message why not.
 */

/** The custom property that holds a camera's stream address. */
export const streamUrlProperty = 'stream_url'

/** How a stream address is played. */
export const playKinds = ['hls', 'flv'] as const
export type PlayKind = (typeof playKinds)[number]

/** What the browser is told to play: the address and the player that takes it. */
export const playSourceSchema = z.object({ kind: z.enum(playKinds), url: z.string() })
export type PlaySource = z.infer<typeof playSourceSchema>

/** Why an address cannot be played (SPEC §8 wording, catalogue codes). */
export type StreamProblem = Extract<
  MessageId,
  'video.noSource' | 'video.noSuitablePlayUrl' | 'video.unsafeStreamUrl'
>

/** Paths of the product itself that are never a stream (its API and device ingest). */
const ownApiPrefixes = ['/web/', '/api/']

/**
 * Reads a stream address: HLS for `.m3u8` (and any other http(s) address: HLS URLs often have
 * no extension), HTTP-FLV for `.flv`; an `rtmp://` address alone gets 'no suitable play URL'
 * (browsers cannot play RTMP); an empty one 'no source found'; `file:`, `javascript:` and other
 * schemes, credentials in the address, and paths of the product's own API are refused. A path
 * (`/samples/hls/master.m3u8`) is served by the product. Pure: the server and tests share it.
 */
export function readStreamUrl(
  address: string,
): { source: PlaySource; problem: null } | { source: null; problem: StreamProblem } {
  const text = address.trim()
  if (text === '') return { source: null, problem: 'video.noSource' }
  const refuse = (problem: StreamProblem) => ({ source: null, problem }) as const
  let url: URL
  try {
    url = new URL(text, 'http://product.invalid')
  } catch {
    return refuse('video.unsafeStreamUrl')
  }
  const isPath = text.startsWith('/') && !text.startsWith('//')
  // anything but a path of the product names its scheme ('//host/…' would borrow the page's)
  if (!isPath && !/^[a-z][a-z0-9+.-]*:/i.test(text)) return refuse('video.unsafeStreamUrl')
  if (url.protocol === 'rtmp:' || url.protocol === 'rtmps:')
    return refuse('video.noSuitablePlayUrl')
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('video.unsafeStreamUrl')
  if (url.username !== '' || url.password !== '') return refuse('video.unsafeStreamUrl')
  if (!isPath && url.hostname === 'product.invalid') return refuse('video.unsafeStreamUrl')
  if (isPath && ownApiPrefixes.some((prefix) => url.pathname.startsWith(prefix))) {
    return refuse('video.unsafeStreamUrl')
  }
  const kind: PlayKind = url.pathname.toLowerCase().endsWith('.flv') ? 'flv' : 'hls'
  return {
    source: { kind, url: isPath ? `${url.pathname}${url.search}` : url.href },
    problem: null,
  }
}

/** One camera of a project. */
export const cameraSchema = z.object({
  poi_id: recordIdSchema,
  name: z.string(),
  devicecode: z.string(),
  /** The address as entered. */
  stream_url: z.string(),
  /** What to play, or null with `problem`. */
  play: playSourceSchema.nullable(),
  problem: z
    .enum(['video.noSource', 'video.noSuitablePlayUrl', 'video.unsafeStreamUrl'])
    .nullable(),
})
export type Camera = z.infer<typeof cameraSchema>

/** `/video/findCameras`: a project's cameras (user token or project token). */
export const findCamerasBodySchema = z.object({
  projectid: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/** The /web/ routes of video. */
export const videoRoutes = {
  findCameras: webRoute({
    method: 'POST',
    path: '/web/video/findCameras',
    auth: 'public',
    summary: "A project's cameras (POIs with a stream address) and how each is played",
    body: findCamerasBodySchema,
    datum: z.array(cameraSchema),
  }),
}
