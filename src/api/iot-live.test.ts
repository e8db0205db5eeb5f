import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LiveEvent } from '../../contract/iot-live'
import { connectLiveStream, type LiveStreamState } from './iot-live'

/** An SSE answer whose frames the test writes, and ends. */
function streamedResponse() {
  const encoder = new TextEncoder()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started
    },
  })
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send(id: string, event: LiveEvent) {
      controller.enqueue(encoder.encode(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`))
    },
    end() {
      controller.close()
    },
  }
}

const status = (code: number): LiveEvent => ({
  type: 'status',
  device_id: 'd1',
  poi_id: 'p1',
  devicecode: 'D1',
  status: code,
  at: '2026-01-01T00:00:00.000Z',
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the live stream client', () => {
  it('sends the token, delivers events, and resumes after a break with Last-Event-ID', async () => {
    vi.useFakeTimers()
    const first = streamedResponse()
    const second = streamedResponse()
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(first.response)
      .mockResolvedValueOnce(second.response)
    const events: LiveEvent[] = []
    const states: LiveStreamState[] = []
    const stop = connectLiveStream({
      projectId: 'project-1',
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
      fetch,
      getToken: () => 'user-token',
    })
    await vi.waitFor(() => expect(states).toContain('live'))
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe('/web/iot/live?projectid=project-1')
    expect((init!.headers as Record<string, string>).Token).toBe('user-token')
    first.send('e-1', status(3))
    first.send('e-2', status(2))
    await vi.waitFor(() => expect(events).toEqual([status(3), status(2)]))

    // the connection breaks: after the retry pause it opens again from the last id it saw
    first.end()
    await vi.waitFor(() => expect(states.at(-1)).toBe('connecting'))
    await vi.advanceTimersByTimeAsync(2_000)
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    expect((fetch.mock.calls[1]![1]!.headers as Record<string, string>)['Last-Event-ID']).toBe(
      'e-2',
    )
    await vi.waitFor(() => expect(states.at(-1)).toBe('live'))
    second.send('e-3', { type: 'reset' })
    await vi.waitFor(() => expect(events.at(-1)).toEqual({ type: 'reset' }))
    stop()
    expect(states.at(-1)).toBe('stopped')
  })

  it('stops for good on a closed event and on a refusal, without retrying', async () => {
    const open = streamedResponse()
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValueOnce(open.response)
    const states: LiveStreamState[] = []
    connectLiveStream({
      projectId: 'p',
      onEvent: () => {},
      onState: (state) => states.push(state),
      fetch,
      getToken: () => 't',
    })
    await vi.waitFor(() => expect(states).toContain('live'))
    open.send('e-1', { type: 'closed', reason: 'signedOut' })
    open.end()
    await vi.waitFor(() => expect(states.at(-1)).toBe('stopped'))

    const refused = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ code: '2011', message: '', datum: null }), { status: 401 }),
      )
    const refusedStates: LiveStreamState[] = []
    connectLiveStream({
      projectId: 'p',
      onEvent: () => {},
      onState: (state) => refusedStates.push(state),
      fetch: refused,
      getToken: () => 't',
    })
    await vi.waitFor(() => expect(refusedStates.at(-1)).toBe('stopped'))
    expect(refused).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledTimes(1)
  })
})
