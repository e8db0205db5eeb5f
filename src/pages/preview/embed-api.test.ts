import { describe, expect, it, vi } from 'vitest'
import { allowedEmbedOrigins, createEmbedApi, EmbedError } from './embed-api'

function setup() {
  const posted: Array<{ message: Record<string, unknown>; origin: string }> = []
  const parent = {
    postMessage: (message: unknown, origin: string) =>
      posted.push({ message: message as Record<string, unknown>, origin }),
  }
  const actions = {
    flyToPoi: vi.fn(async (poiId: string) => {
      if (poiId === 'missing') throw new EmbedError('notFound', 'No such POI.')
    }),
    selectFloor: vi.fn(async () => undefined),
    startTour: vi.fn(() => true),
    stopTour: vi.fn(),
  }
  const origins = allowedEmbedOrigins(
    '?project_id=p&embed_origin=https://partner.example/page,not a url,ftp://x.example',
    'https://twin.example',
  )
  const api = createEmbedApi({ origins, parent, actions })
  const send = (data: unknown, origin = 'https://partner.example') =>
    api.onMessage({ origin, data, source: parent })
  return { api, actions, posted, send, parent, origins }
}

describe('embedding API of the preview', () => {
  it('hears only its own origin and the listed http(s) origins', () => {
    const { origins } = setup()
    expect([...origins]).toEqual(['https://twin.example', 'https://partner.example'])
  })

  it('runs commands from an allowed origin and replies to that origin with the request id', async () => {
    const { actions, posted, send } = setup()
    await send({ type: 'twinscape', id: '1', command: 'flyToPoi', args: { poiId: 'poi-7' } })
    await send({ type: 'twinscape', id: '2', command: 'selectFloor', args: { floor: '2F' } })
    await send({ type: 'twinscape', id: '3', command: 'startTour' })
    expect(actions.flyToPoi).toHaveBeenCalledWith('poi-7')
    expect(actions.selectFloor).toHaveBeenCalledWith('2F')
    expect(actions.startTour).toHaveBeenCalled()
    expect(posted.map(({ message, origin }) => [message.id, message.ok, origin])).toEqual([
      ['1', true, 'https://partner.example'],
      ['2', true, 'https://partner.example'],
      ['3', true, 'https://partner.example'],
    ])
  })

  it('ignores other origins and other windows, and refuses malformed payloads with a code', async () => {
    const { actions, posted, send, api } = setup()
    expect(await send({ type: 'twinscape', command: 'stopTour' }, 'https://evil.example')).toBe(
      false,
    )
    expect(
      await api.onMessage({
        origin: 'https://partner.example',
        data: { type: 'twinscape', command: 'stopTour' },
        source: {},
      }),
    ).toBe(false)
    expect(posted).toHaveLength(0)
    expect(actions.stopTour).not.toHaveBeenCalled()

    await send({ type: 'twinscape', id: 'a', command: 'explode' })
    await send({ type: 'twinscape', id: 'b', command: 'flyToPoi', args: { poiId: 42 } })
    await send({ type: 'twinscape', id: 'c', command: 'flyToPoi', args: { poiId: 'missing' } })
    expect(await send('just text')).toBe(false)
    expect(
      posted.map(({ message }) => [message.id, (message.error as { code: string }).code]),
    ).toEqual([
      ['a', 'badMessage'],
      ['b', 'badArgs'],
      ['c', 'notFound'],
    ])
  })

  it('sends events to the allowed origins', () => {
    const { api, posted } = setup()
    api.emit('pick', { meshName: 'Door' })
    expect(posted.map(({ origin }) => origin)).toEqual([
      'https://twin.example',
      'https://partner.example',
    ])
    expect(posted[0]?.message).toEqual({
      type: 'twinscape',
      event: 'pick',
      data: { meshName: 'Door' },
    })
  })
})
