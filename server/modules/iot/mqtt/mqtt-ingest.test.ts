import { createHash } from 'node:crypto'
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../../../../contract/envelope'
import { type DeviceWithToken, iotLimits, iotRoutes } from '../../../../contract/iot'
import type { PoiDetail } from '../../../../contract/pois'
import type { HealthDatum } from '../../../../contract/system'
import { createProject, signInNewUser } from '../../../routes/web/project-test-kit'
import { libraryCamera, okPoi } from '../../../routes/web/pois-test-kit'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../../testing/test-app'
import { findMosquitto } from './mqtt-broker'

/**
 * MQTT ingest against the real broker (issue 17): the server starts Debian's mosquitto with the
 * Twinscape plugin; devices connect as ThingsBoard devices do (user name = access token,
 * topics v1/devices/me/telemetry and /attributes) and what they send is stored by the same
 * ingest as HTTP. Authentication, the ACL (no device speaks for or reads another), malformed
 * and oversized payloads, revocation and the per-device rate are checked end to end.
 */

const hasMosquitto = findMosquitto(undefined) !== undefined
// CI installs mosquitto (.ci/run); a machine without it skips only this file, and says so
if (!hasMosquitto) console.warn('mosquitto is not installed: MQTT ingest tests skipped')

let test: TestApp
let editorToken: string
let otherToken: string
let port: number
const clients: MqttClient[] = []
let projectId: string
let cameraId: string
let poiCount = 0

const app = () => test.app
const status = () => app().deps.services.mqtt.status()

async function health(): Promise<HealthDatum> {
  const response = await app().inject({ method: 'GET', url: '/web/health' })
  return (response.json() as Envelope<HealthDatum>).datum
}

/** A new POI with a device in the test project; answers the device and its token. */
async function newDevice(token = editorToken, project = projectId): Promise<DeviceWithToken> {
  poiCount += 1
  const poi = await okPoi<PoiDetail>(app(), { token }, 'creatPoi', {
    projectid: project,
    name: `Sensor ${poiCount}`,
    category_id: cameraId,
    x: 121.5,
    y: 31.2,
    devicecode: `MQTT-${poiCount}`,
  })
  const answer = await callApi<DeviceWithToken>(app(), {
    url: iotRoutes.provisionDevice.path,
    token,
    json: { poi_id: poi.id },
  })
  return answer.envelope.datum
}

/** Connects as a device (MQTT 3.1.1, like ThingsBoard's SDKs); fails on a refused CONNECT. */
async function connectDevice(username: string, extra: IClientOptions = {}): Promise<MqttClient> {
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, {
    username,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  })
  clients.push(client)
  return client
}

/** The refusal reason of a CONNECT that must fail. */
async function refusedConnect(username: string, password?: string): Promise<string> {
  try {
    await connectDevice(username, password === undefined ? {} : { password })
  } catch (error) {
    return String(error)
  }
  throw new Error(`CONNECT as ${username.slice(0, 8)}… was accepted`)
}

/** Waits (polling, no fixed sleep) until the subscriber has taken `count` more messages. */
async function handledAtLeast(count: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while (status().handled < count) {
    if (Date.now() > deadline) throw new Error(`only ${status().handled} of ${count} handled`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Publishes (QoS 1: the broker has it when this resolves) and waits until the server took it. */
async function publishAndWait(client: MqttClient, topic: string, payload: string | Buffer) {
  const before = status().handled
  await client.publishAsync(topic, payload, { qos: 1 })
  await handledAtLeast(before + 1)
}

/** Stored points of a device per key. */
async function pointsOf(deviceId: string): Promise<Record<string, number[]>> {
  const rows = await app()
    .deps.database.db.selectFrom('iot_points')
    .innerJoin('iot_series', 'iot_series.id', 'iot_points.series_id')
    .select(['iot_series.key', 'iot_points.value'])
    .where('iot_series.device_id', '=', deviceId)
    .orderBy('iot_points.ts')
    .execute()
  const byKey: Record<string, number[]> = {}
  for (const row of rows) {
    byKey[row.key] = [...(byKey[row.key] ?? []), Number(row.value)]
  }
  return byKey
}

describe.skipIf(!hasMosquitto)('MQTT ingest through mosquitto', () => {
  beforeAll(async () => {
    test = await createTestApp({
      env: {
        MQTT: 'on',
        MQTT_PORT: '0',
        MQTT_HOST: '127.0.0.1',
        // the test clock stands still, so a bucket never refills: each device has this many
        IOT_DEVICE_REQUEST_BURST: '20',
      },
    })
    editorToken = await signIn(app(), testEditor)
    otherToken = await signInNewUser(app(), 'mqtt-other-editor')
    projectId = (await createProject(app(), editorToken, { name: 'MQTT city' })).id
    cameraId = (await libraryCamera(app(), editorToken)).id
    port = status().port!
  }, 60_000)

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => {})))
    await test?.close()
  })

  it('says in /web/health that MQTT ingest runs, and on which port', async () => {
    expect((await health()).iot).toEqual({
      http: true,
      mqtt: 'running',
      mqttPort: port,
      mqttReason: null,
    })
  })

  it('stores telemetry and attributes a device publishes with its token as user name', async () => {
    const { device, token } = await newDevice()
    const client = await connectDevice(token)
    await publishAndWait(client, 'v1/devices/me/telemetry', JSON.stringify({ temperature: 21.5 }))
    await publishAndWait(
      client,
      'v1/devices/me/telemetry',
      JSON.stringify([
        { ts: 1_700_000_000_000, values: { temperature: 22, humidity: 40 } },
        { ts: 1_700_000_001_000, values: { temperature: 22.5 } },
      ]),
    )
    await publishAndWait(client, 'v1/devices/me/attributes', JSON.stringify({ firmware: '1.2.0' }))
    const points = await pointsOf(device.id)
    expect(points.temperature).toHaveLength(3)
    expect(points.humidity).toEqual([40])
    const attribute = await app()
      .deps.database.db.selectFrom('iot_attributes')
      .select('value_json')
      .where('device_id', '=', device.id)
      .where('key', '=', 'firmware')
      .executeTakeFirstOrThrow()
    expect(JSON.parse(attribute.value_json)).toBe('1.2.0')
  })

  it('refuses CONNECT without a known token, and the server account without its password', async () => {
    expect(await refusedConnect('x'.repeat(43))).toMatch(/Not authorized|Bad username/i)
    expect(await refusedConnect('')).toMatch(/Not authorized|Bad username/i)
    expect(await refusedConnect('twinscape-ingest', 'guess')).toMatch(
      /Not authorized|Bad username/i,
    )
    // the token's hash (what the database and the broker's file hold) opens nothing either
    const { token } = await newDevice()
    const hash = createHash('sha256').update(token).digest('hex')
    expect(await refusedConnect(hash)).toMatch(/Not authorized|Bad username/i)
  })

  it('refuses a revoked token at CONNECT, and cuts off a device already connected with it', async () => {
    const { device, token } = await newDevice()
    const client = await connectDevice(token)
    await publishAndWait(client, 'v1/devices/me/telemetry', JSON.stringify({ level: 1 }))
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()))
    const revoked = await callApi(app(), {
      url: iotRoutes.revokeDeviceToken.path,
      token: editorToken,
      json: { id: device.id },
    })
    expect(revoked.statusCode).toBe(200)
    // the broker's plugin rereads its credentials: the next message is refused, the client kicked
    client.publish('v1/devices/me/telemetry', JSON.stringify({ level: 2 }), { qos: 1 })
    await closed
    expect(await refusedConnect(token)).toMatch(/Not authorized|Bad username/i)
    expect((await pointsOf(device.id)).level).toEqual([1])
  })

  it('lets no device publish as another, read what others send, or reach the server topics', async () => {
    const mine = await newDevice()
    // a device of another user's project
    const theirProject = (await createProject(app(), otherToken, { name: 'Their MQTT city' })).id
    const theirs = await newDevice(otherToken, theirProject)
    const me = await connectDevice(mine.token)
    const them = await connectDevice(theirs.token)
    const myHash = createHash('sha256').update(mine.token).digest('hex')

    // their device listens where my messages would go, everywhere it may ask for: SUBACK 128
    // (refused by the broker's ACL) but for its own topics
    const seen: string[] = []
    them.on('message', (topic) => seen.push(topic))
    for (const filter of ['#', 'twinscape/in/#', `twinscape/in/${myHash}/telemetry`, '$SYS/#']) {
      await expect(them.subscribeAsync(filter, { qos: 1 }), filter).rejects.toThrow(
        /Subscribe error/,
      )
    }
    const granted = await them.subscribeAsync('v1/devices/me/telemetry', { qos: 1 })
    expect(granted.map((grant) => grant.qos)).toEqual([1])

    // it publishes to the server's topic under my hash, and to a made-up device topic
    await them.publishAsync(`twinscape/in/${myHash}/telemetry`, '{"forged":1}', { qos: 1 })
    await them.publishAsync('v1/devices/other/telemetry', '{"forged":2}', { qos: 1 })
    // my message and theirs, each on the shared topic: each lands on its own device only
    await publishAndWait(me, 'v1/devices/me/telemetry', '{"mine":1}')
    await publishAndWait(them, 'v1/devices/me/telemetry', '{"theirs":1}')

    expect(await pointsOf(mine.device.id)).toEqual({ mine: [1] })
    expect(await pointsOf(theirs.device.id)).toEqual({ theirs: [1] })
    expect(seen).toEqual([])
  })

  it('refuses malformed, wrongly typed and oversized payloads whole, and goes on with the next', async () => {
    const { device, token } = await newDevice()
    const client = await connectDevice(token)
    const before = status().refused
    const refusedSince = (id: string) => (status().refused[id] ?? 0) - (before[id] ?? 0)
    const send = (payload: string | Buffer) =>
      publishAndWait(client, 'v1/devices/me/telemetry', payload)

    await send('{"temperature": ')
    await send('{"temperature": NaN}')
    await send('')
    await send('[1, 2, 3]')
    await send(JSON.stringify({ temperature: 'hot' }))
    await send('{"temperature": 1e999}')
    await send(
      JSON.stringify(
        Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index])),
      ),
    )
    expect(refusedSince('request.invalidJson')).toBe(2)
    expect(refusedSince('iot.notJsonObject')).toBe(2)
    expect(refusedSince('iot.valueNotNumber')).toBe(1)
    expect(refusedSince('iot.valueNotFinite')).toBe(1)
    expect(refusedSince('iot.tooManyKeys')).toBe(1)

    // over the body limit: the broker drops it before the server sees it (a message it passed
    // on would be queued for the server before the broker acknowledges it or hangs up)
    const big = await connectDevice(token, { clientId: 'big-sender' })
    const handled = status().handled
    await Promise.race([
      big
        .publishAsync(
          'v1/devices/me/telemetry',
          JSON.stringify({ blob: 'x'.repeat(iotLimits.maxBodyBytes + 1) }),
          { qos: 1 },
        )
        .catch(() => {}),
      new Promise<void>((resolve) => big.once('close', () => resolve())),
    ])

    // the first connection goes on: the next good message is stored, and nothing else was
    await send(JSON.stringify({ temperature: 20 }))
    expect(status().handled).toBe(handled + 1)
    expect(await pointsOf(device.id)).toEqual({ temperature: [20] })
  })

  it('holds a flooding device to its rate while another device goes on', async () => {
    const flooder = await newDevice()
    const quiet = await newDevice()
    const flood = await connectDevice(flooder.token)
    const calm = await connectDevice(quiet.token)
    const before = status().handled
    const limited = status().refused['iot.deviceRateLimited'] ?? 0
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        flood.publishAsync(
          'v1/devices/me/telemetry',
          // each at its own time: the test clock stands still
          JSON.stringify({ ts: 1_700_000_000_000 + index, values: { n: index } }),
          { qos: 1 },
        ),
      ),
    )
    await handledAtLeast(before + 30)
    await publishAndWait(calm, 'v1/devices/me/telemetry', JSON.stringify({ n: 1 }))
    expect((await pointsOf(flooder.device.id)).n).toHaveLength(20)
    expect((status().refused['iot.deviceRateLimited'] ?? 0) - limited).toBe(10)
    expect((await pointsOf(quiet.device.id)).n).toEqual([1])
  })
})

describe('without a broker', () => {
  it('runs with HTTP ingest only and says why in /web/health', async () => {
    const alone = await createTestApp({
      env: { MQTT: 'auto', MQTT_PORT: '0', MQTT_BROKER: '/nonexistent/mosquitto' },
    })
    try {
      const response = await alone.app.inject({ method: 'GET', url: '/web/health' })
      expect((response.json() as Envelope<HealthDatum>).datum.iot).toEqual({
        http: true,
        mqtt: 'unavailable',
        mqttPort: null,
        mqttReason: 'mosquitto is not installed',
      })
    } finally {
      await alone.close()
    }
  })
})
