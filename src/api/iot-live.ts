import { createParser } from 'eventsource-parser'
import { iotLivePath, type LiveEvent, liveEventSchema, liveRetryMs } from '../../contract/iot-live'
import { sessionLink } from './session-link'

export type { LiveEvent } from '../../contract/iot-live'

/** Where a live stream stands: connecting (or reconnecting), live, or stopped for good. */
export type LiveStreamState = 'connecting' | 'live' | 'stopped'

/** Longest wait between reconnection attempts. */
const maxRetryMs = 30_000

/**
 * Reads a project's live stream (contract/iot-live.ts) with `fetch`, which, unlike
 * `EventSource`, can send the `Token` header. A broken stream is opened again after a growing
 * pause with `Last-Event-ID`, so the server sends what was missed (or a `reset`); a `closed`
 * event, or a refusal such as a signed-out session, stops it. Returns the function that stops it.
 */
export function connectLiveStream(options: {
  projectId: string
  onEvent: (event: LiveEvent) => void
  onState: (state: LiveStreamState) => void
  /** Test seams. */
  fetch?: typeof fetch
  getToken?: () => string | null
}): () => void {
  const fetchFn = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const getToken = options.getToken ?? sessionLink.token
  let abort: AbortController | undefined
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let lastEventId: string | undefined
  let isStopped = false
  let failures = 0

  const stop = () => {
    if (isStopped) return
    isStopped = true
    abort?.abort()
    if (retryTimer !== undefined) clearTimeout(retryTimer)
    options.onState('stopped')
  }

  const retry = () => {
    if (isStopped) return
    options.onState('connecting')
    failures++
    const delayMs = Math.min(maxRetryMs, liveRetryMs * 2 ** Math.min(failures - 1, 4))
    retryTimer = setTimeout(() => void open(), delayMs)
  }

  const open = async () => {
    if (isStopped) return
    const token = getToken()
    if (!token) {
      stop()
      return
    }
    abort = new AbortController()
    const headers: Record<string, string> = { Token: token, Accept: 'text/event-stream' }
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId
    let response: Response
    try {
      response = await fetchFn(
        `${iotLivePath}?projectid=${encodeURIComponent(options.projectId)}`,
        {
          headers,
          signal: abort.signal,
          cache: 'no-store',
        },
      )
    } catch {
      retry()
      return
    }
    if (!response.ok || response.body === null) {
      // refused (signed out, no access, bad project): trying again would be refused again,
      // except when the server is busy or gone for a moment
      await response.body?.cancel().catch(() => undefined)
      if (response.status === 429 || response.status >= 500) retry()
      else stop()
      return
    }
    failures = 0
    options.onState('live')
    let isClosed = false
    const parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) lastEventId = message.id
        let event: LiveEvent
        try {
          event = liveEventSchema.parse(JSON.parse(message.data))
        } catch {
          return // an event of a newer server this client does not know
        }
        if (event.type === 'closed') isClosed = true
        options.onEvent(event)
      },
    })
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } catch {
      // the connection broke (or stop() aborted it)
    }
    if (isClosed) stop()
    else retry()
  }

  options.onState('connecting')
  void open()
  return stop
}
