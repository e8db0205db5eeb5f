import { createParser } from 'eventsource-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../../../contract/envelope'
import { type Investigation, investigationRoutes } from '../../../contract/investigations'
import { type Alarm, type DeviceWithToken, iotRoutes } from '../../../contract/iot'
import { iotLivePath, type LiveEvent, liveEventSchema } from '../../../contract/iot-live'
import type { PoiDetail } from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { createProject, signInNewUser } from './project-test-kit'
import { libraryCamera, okPoi } from './pois-test-kit'
import { liveStreamsPerUser } from './iot-live'

/**
 * The live stream (contract/iot-live.ts) over a real socket: who may open it, what reaches it
 * when devices report through the real HTTP ingest and editors act on alarms and inspections,
 * resuming after a reconnect, and the stream ending when its reader signs out or the server
 * stops.
 */

let test: TestApp
let baseUrl: string
let ownerToken: string
let otherToken: string
let guestToken: string
let city: Project
let theirs: Project
let sensor: DeviceWithToken
let theirSensor: DeviceWithToken

interface Received {
  id: string | undefined
  event: LiveEvent
}

/** An open stream: its events as they come, read with a real SSE parser. */
interface Stream {
  status: number
  /** The next event that `accept` takes (others before it are skipped), within 10 s. */
  next(accept?: (event: LiveEvent) => boolean): Promise<Received>
  /** Resolves when the server ended the stream. */
  ended: Promise<void>
  close(): void
}

async function openStream(
  token: string | undefined,
  projectId: string,
  lastEventId?: string,
): Promise<Stream> {
  const abort = new AbortController()
  const response = await fetch(`${baseUrl}${iotLivePath}?projectid=${projectId}`, {
    headers: {
      ...(token === undefined ? {} : { token }),
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    signal: abort.signal,
  })
  const received: Received[] = []
  const waiters: Array<() => void> = []
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter()
  }
  const parser = createParser({
    onEvent: (message) => {
      received.push({ id: message.id, event: liveEventSchema.parse(JSON.parse(message.data)) })
      wake()
    },
  })
  const ended = (async () => {
    if (response.body === null) return
    const decoder = new TextDecoder()
    try {
      const reader = response.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } catch {
      // aborted by the test
    }
    wake()
  })()
  let isEnded = false
  void ended.then(() => {
    isEnded = true
  })
  return {
    status: response.status,
    ended,
    async next(accept = () => true) {
      const deadline = Date.now() + 10_000
      for (;;) {
        const index = received.findIndex((entry) => accept(entry.event))
        if (index >= 0) return received.splice(0, index + 1)[index]!
        if (isEnded || Date.now() > deadline) throw new Error('no such event on the stream')
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => abort.abort(),
  }
}

/** Posts telemetry through the real device API. */
async function sendTelemetry(token: string, body: unknown) {
  const response = await fetch(`${baseUrl}/api/v1/${token}/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
}

async function ok<Datum>(token: string, url: string, json: unknown): Promise<Datum> {
  const answer = await callApi<Datum>(test.app, { url, token, json })
  if (answer.envelope.code !== '0') throw new Error(`${url}: ${answer.envelope.message}`)
  return answer.envelope.datum
}

const ofType =
  <Type extends LiveEvent['type']>(type: Type) =>
  (event: LiveEvent): event is Extract<LiveEvent, { type: Type }> =>
    event.type === type

beforeAll(async () => {
  test = await createTestApp({
    env: { IOT_LIVE_HEARTBEAT_MS: '150', IOT_DEVICE_REQUEST_BURST: '100000' },
  })
  ownerToken = await signIn(test.app, testEditor)
  otherToken = await signInNewUser(test.app, 'live-other-editor')
  guestToken = await signInNewUser(test.app, 'live-guest', 'guest')
  city = await createProject(test.app, ownerToken, { name: 'Live city' })
  theirs = await createProject(test.app, otherToken, { name: 'Their live city' })
  const camera = await libraryCamera(test.app, ownerToken)
  const poi = (token: string, project: Project, code: string) =>
    okPoi<PoiDetail>(test.app, { token }, 'creatPoi', {
      projectid: project.id,
      name: `Sensor ${code}`,
      category_id: camera.id,
      x: 121.5,
      y: 31.2,
      devicecode: code,
    })
  const mine = await poi(ownerToken, city, 'LIVE-1')
  const other = await poi(otherToken, theirs, 'LIVE-THEIRS')
  sensor = await ok(ownerToken, iotRoutes.provisionDevice.path, { poi_id: mine.id })
  theirSensor = await ok(otherToken, iotRoutes.provisionDevice.path, { poi_id: other.id })
  await test.app.listen({ host: '127.0.0.1', port: 0 })
  const address = test.app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening')
  baseUrl = `http://127.0.0.1:${address.port}`
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('who may open the live stream', () => {
  it('refuses nobody, a bad project id, and readers of other projects with envelopes', async () => {
    const refusal = async (token: string | undefined, projectId: string) => {
      const response = await fetch(`${baseUrl}${iotLivePath}?projectid=${projectId}`, {
        headers: token === undefined ? {} : { token },
      })
      return { status: response.status, envelope: (await response.json()) as Envelope<unknown> }
    }
    expect((await refusal(undefined, city.id)).envelope.code).toBe('2011')
    expect((await refusal(ownerToken, '')).status).toBe(400)
    const others = await refusal(otherToken, city.id)
    expect([403, 404]).toContain(others.status)
    const guests = await refusal(guestToken, city.id)
    expect([403, 404]).toContain(guests.status)
  })

  it('opens for the owner as an event stream', async () => {
    const stream = await openStream(ownerToken, city.id)
    expect(stream.status).toBe(200)
    stream.close()
  })

  it(`allows ${liveStreamsPerUser} open streams per user, then answers 429`, async () => {
    const streams = await Promise.all(
      Array.from({ length: liveStreamsPerUser }, () => openStream(otherToken, theirs.id)),
    )
    expect(streams.every((stream) => stream.status === 200)).toBe(true)
    const extra = await openStream(otherToken, theirs.id)
    expect(extra.status).toBe(429)
    for (const stream of streams) stream.close()
  })
})

describe('what the stream carries', () => {
  it('pushes telemetry, a status change and the alarm it raised, then its acknowledgement', async () => {
    const stream = await openStream(ownerToken, city.id)
    await sendTelemetry(sensor.token, [
      { ts: 1_000, values: { temperature: 20.5 } },
      { ts: 2_000, values: { temperature: 21.5, humidity: 40 } },
    ])
    const telemetry = await stream.next(ofType('telemetry'))
    expect(telemetry.event).toEqual({
      type: 'telemetry',
      device_id: sensor.device.id,
      poi_id: sensor.device.poi_id,
      ts: 2_000,
      values: { temperature: 21.5, humidity: 40 },
    })
    expect(telemetry.id).toMatch(/^[0-9a-f]+-\d+$/)

    await sendTelemetry(sensor.token, { temperature: 80, status: 3 })
    const status = await stream.next(ofType('status'))
    expect(status.event).toMatchObject({ device_id: sensor.device.id, status: 3 })
    const raised = (await stream.next(ofType('alarm'))).event as { alarm: Alarm }
    expect(raised.alarm).toMatchObject({ device_id: sensor.device.id, code: 3, state: 'active' })

    await ok(ownerToken, iotRoutes.updateAlarm.path, {
      id: raised.alarm.id,
      state: 'acknowledged',
    })
    const acknowledged = (await stream.next(ofType('alarm'))).event as { alarm: Alarm }
    expect(acknowledged.alarm).toMatchObject({ id: raised.alarm.id, state: 'acknowledged' })
    await ok(ownerToken, iotRoutes.updateAlarm.path, { id: raised.alarm.id, state: 'cleared' })
    expect((await stream.next(ofType('alarm'))).event).toMatchObject({
      alarm: { state: 'cleared', cleared_by: testEditor.name },
    })
    stream.close()
  })

  it("never carries another project's devices", async () => {
    const stream = await openStream(ownerToken, city.id)
    await sendTelemetry(theirSensor.token, { secret: 42 })
    await sendTelemetry(sensor.token, { marker: 1 })
    // the first telemetry to arrive is our own marker: theirs was never sent here
    const first = await stream.next(ofType('telemetry'))
    expect(first.event).toMatchObject({ device_id: sensor.device.id, values: { marker: 1 } })
    stream.close()
  })
})

describe('inspections on the stream', () => {
  it("carries an inspection added, changed and deleted to the project's other open editors", async () => {
    const stream = await openStream(ownerToken, city.id)
    const added = await ok<Investigation>(ownerToken, investigationRoutes.addInvestigation.path, {
      poi_id: sensor.device.poi_id,
      inspector: 'Park Ji-ho',
      findings: 'Detector head dusty.',
    })
    expect((await stream.next(ofType('investigation'))).event).toEqual({
      type: 'investigation',
      investigation: added,
    })
    // a change another project's editor may not make is refused and tells nobody anything
    const refused = await callApi(test.app, {
      url: investigationRoutes.updateInvestigation.path,
      token: otherToken,
      json: { id: added.id, findings: 'Not theirs to change.' },
    })
    expect(refused.envelope.code).not.toBe('0')
    const changed = await ok<Investigation>(
      ownerToken,
      investigationRoutes.updateInvestigation.path,
      { id: added.id, state: 'resolved', findings: 'Cleaned.' },
    )
    expect(changed).toMatchObject({ state: 'resolved', findings: 'Cleaned.' })
    expect((await stream.next(ofType('investigation'))).event).toEqual({
      type: 'investigation',
      investigation: changed,
    })
    await ok(ownerToken, investigationRoutes.deleteInvestigation.path, { id: added.id })
    expect((await stream.next(ofType('investigationDeleted'))).event).toEqual({
      type: 'investigationDeleted',
      id: added.id,
    })
    stream.close()
  })
})

describe('reconnecting', () => {
  it('sends what was missed after Last-Event-ID, and a reset for an id it cannot resume', async () => {
    const first = await openStream(ownerToken, city.id)
    await sendTelemetry(sensor.token, { step: 1 })
    const seen = await first.next(ofType('telemetry'))
    first.close()
    // sent while nobody listens: kept for the resume window
    await sendTelemetry(sensor.token, { step: 2 })
    await sendTelemetry(sensor.token, { step: 3 })

    const resumed = await openStream(ownerToken, city.id, seen.id)
    expect((await resumed.next(ofType('telemetry'))).event).toMatchObject({ values: { step: 2 } })
    expect((await resumed.next(ofType('telemetry'))).event).toMatchObject({ values: { step: 3 } })
    resumed.close()

    const stale = await openStream(ownerToken, city.id, 'abcdef01-12')
    expect((await stale.next()).event).toEqual({ type: 'reset' })
    stale.close()
  })
})

describe('ending', () => {
  it('ends the stream with signedOut within a heartbeat of signing out', async () => {
    const token = await signIn(test.app, testEditor)
    const stream = await openStream(token, city.id)
    await callApi(test.app, { url: '/web/logout', token })
    expect((await stream.next(ofType('closed'))).event).toEqual({
      type: 'closed',
      reason: 'signedOut',
    })
    await stream.ended
  })

  it('ends open streams with shutdown when the server closes', async () => {
    const stream = await openStream(ownerToken, city.id)
    await test.app.close()
    expect((await stream.next(ofType('closed'))).event).toEqual({
      type: 'closed',
      reason: 'shutdown',
    })
  })
})
