import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../../../contract/envelope'
import {
  type Alarm,
  type AlarmPage,
  type Device,
  type DeviceTimeseries,
  type DeviceWithToken,
  type IotCallName,
  iotLimits,
  iotRoutes,
  type ProvisionedDevices,
} from '../../../contract/iot'
import type { MessageId } from '../../../contract/messages'
import type { PoiDetail } from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { createProject, signInNewUser } from './project-test-kit'
import { type Caller, libraryCamera, okPoi, projectTokenOf } from './pois-test-kit'

/**
 * The live twin's server core (issue 17, contract/iot.ts) on a real database: the device
 * registry and its tokens, the device HTTP API in ThingsBoard's shapes with its limits, time
 * series answered from rollups, and status codes raising alarm records with their lifecycle —
 * every call with the access matrix (owner, another editor, a guest, nobody, an admin, a
 * project-token holder).
 */

type Answer<Datum> = {
  statusCode: number
  envelope: Envelope<Datum> & { messageId?: MessageId }
  headers: Record<string, unknown>
}

let test: TestApp
let owner: Caller
let other: Caller
let guest: Caller
let admin: Caller
let city: Project
let theirs: Project
let pois: Record<'gate' | 'hall' | 'lobby' | 'noCode' | 'theirs', PoiDetail>
let shareToken: string

const app = () => test.app

async function call<Datum>(
  caller: Caller,
  name: IotCallName,
  body: unknown,
): Promise<Answer<Datum>> {
  return (await callApi<Datum>(app(), {
    url: iotRoutes[name].path,
    json: body,
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
    ...(caller !== undefined && 'projectToken' in caller
      ? { headers: { projecttoken: caller.projectToken } }
      : {}),
  })) as Answer<Datum>
}

async function ok<Datum>(caller: Caller, name: IotCallName, body: unknown): Promise<Datum> {
  const answer = await call<Datum>(caller, name, body)
  if (answer.envelope.code !== '0') {
    throw new Error(`${name}: ${answer.statusCode} ${answer.envelope.message}`)
  }
  return answer.envelope.datum
}

function expectRefused(answer: Answer<unknown>, statusCode: number, messageId?: MessageId) {
  expect(answer.statusCode, answer.envelope.message).toBe(statusCode)
  if (messageId !== undefined) expect(answer.envelope.messageId).toBe(messageId)
}

/** Posts to the device API: a body object as JSON, a string as is. */
async function post(
  server: FastifyInstance,
  token: string,
  resource: 'telemetry' | 'attributes',
  body: unknown,
  contentType = 'application/json',
): Promise<Answer<{ count: number }>> {
  const response = await server.inject({
    method: 'POST',
    url: `/api/v1/${token}/${resource}`,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { statusCode: response.statusCode, envelope: response.json(), headers: response.headers }
}

async function pointCount(): Promise<number> {
  const row = await app()
    .deps.database.db.selectFrom('iot_points')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

const cityPoi = (project: Project, name: string, devicecode: string) => ({
  projectid: project.id,
  name,
  category_id: '',
  x: 121.5,
  y: 31.2,
  devicecode,
})

beforeAll(async () => {
  // a generous burst: the rate limit has its own app below
  test = await createTestApp({ env: { IOT_DEVICE_REQUEST_BURST: '100000' } })
  owner = { token: await signIn(test.app, testEditor) }
  admin = { token: await signIn(test.app, testAdmin) }
  other = { token: await signInNewUser(test.app, 'iot-other-editor') }
  guest = { token: await signInNewUser(test.app, 'iot-guest', 'guest') }
  const ownerToken = (owner as { token: string }).token
  const otherToken = (other as { token: string }).token
  city = await createProject(test.app, ownerToken, { name: 'IoT city' })
  theirs = await createProject(test.app, otherToken, { name: 'Their IoT city' })
  const camera = await libraryCamera(test.app, ownerToken)
  const make = (caller: Caller, project: Project, name: string, code: string) =>
    okPoi<PoiDetail>(test.app, caller, 'creatPoi', {
      ...cityPoi(project, name, code),
      category_id: camera.id,
    })
  pois = {
    gate: await make(owner, city, 'Gate sensor', 'S-GATE'),
    hall: await make(owner, city, 'Hall sensor', 'S-HALL'),
    lobby: await make(owner, city, 'Lobby sensor', 'S-LOBBY'),
    noCode: await make(owner, city, 'Unnamed sensor', ''),
    theirs: await make(other, theirs, 'Their sensor', 'S-THEIRS'),
  }
  shareToken = await projectTokenOf(test.app, ownerToken, city)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('provisioning devices', () => {
  let gate: DeviceWithToken

  it('provisions a device from a POI: its device code, a token shown once, only its hash kept', async () => {
    gate = await ok<DeviceWithToken>(owner, 'provisionDevice', { poi_id: pois.gate.id })
    expect(gate.device).toMatchObject({
      projectid: city.id,
      poi_id: pois.gate.id,
      devicecode: 'S-GATE',
      name: 'Gate sensor',
      type: 'CAM-2D',
      is_revoked: false,
      status: null,
      token_hint: gate.token.slice(-4),
    })
    expect(gate.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const row = await app()
      .deps.database.db.selectFrom('iot_devices')
      .selectAll()
      .where('id', '=', gate.device.id)
      .executeTakeFirstOrThrow()
    expect(row.token_hash).toBe(createHash('sha256').update(gate.token).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(gate.token)
    // the list never shows the token again
    const listed = await ok<Device[]>(owner, 'findDevices', { projectid: city.id })
    expect(JSON.stringify(listed)).not.toContain(gate.token)
  })

  it('refuses a second device for a POI, a POI without a code, and callers who may not change it', async () => {
    expectRefused(
      await call(owner, 'provisionDevice', { poi_id: pois.gate.id }),
      409,
      'iot.poiHasDevice',
    )
    expectRefused(
      await call(owner, 'provisionDevice', { poi_id: pois.noCode.id }),
      400,
      'iot.poiNoDevicecode',
    )
    expectRefused(
      await call(other, 'provisionDevice', { poi_id: pois.hall.id }),
      404,
      'poi.notFound',
    )
    expectRefused(
      await call(guest, 'provisionDevice', { poi_id: pois.hall.id }),
      403,
      'auth.notAllowed',
    )
    expectRefused(await call(undefined, 'provisionDevice', { poi_id: pois.hall.id }), 401)
    expectRefused(
      await call(owner, 'provisionDevice', { poi_id: 'no-such-poi' }),
      404,
      'poi.notFound',
    )
    expectRefused(await call(owner, 'provisionDevice', {}), 400, 'validation.invalidFields')
  })

  it('provisions in bulk: new devices with tokens, POIs with a device or no code skipped', async () => {
    const made = await ok<ProvisionedDevices>(owner, 'provisionDevices', {
      projectid: city.id,
      poi_ids: [pois.hall.id, pois.gate.id, pois.noCode.id],
    })
    expect(made.count).toBe(1)
    expect(made.list[0]?.device.devicecode).toBe('S-HALL')
    expect(made.skipped).toEqual([
      { poi_id: pois.gate.id, reason: 'hasDevice' },
      { poi_id: pois.noCode.id, reason: 'noDevicecode' },
    ])
    // another project's POI refuses the whole list
    expectRefused(
      await call(owner, 'provisionDevices', {
        projectid: city.id,
        poi_ids: [pois.lobby.id, pois.theirs.id],
      }),
      404,
      'poi.notYours',
    )
    expectRefused(
      await call(other, 'provisionDevices', { projectid: city.id, poi_ids: [pois.lobby.id] }),
      403,
      'project.foreign',
    )
    const listed = await ok<Device[]>(owner, 'findDevices', { projectid: city.id })
    expect(listed.map((device) => device.devicecode)).toEqual(['S-GATE', 'S-HALL'])
  })

  it('lists devices to project readers only', async () => {
    expect(
      await ok<Device[]>({ projectToken: shareToken }, 'findDevices', { projectid: city.id }),
    ).toHaveLength(2)
    expect(await ok<Device[]>(admin, 'findDevices', { projectid: city.id })).toHaveLength(2)
    expectRefused(await call(other, 'findDevices', { projectid: city.id }), 403, 'project.foreign')
    expectRefused(await call(undefined, 'findDevices', { projectid: city.id }), 401)
  })

  it('revokes and rotates a token: the old one is refused at once, the new one works', async () => {
    expect((await post(app(), gate.token, 'telemetry', { temperature: 20 })).statusCode).toBe(200)
    expectRefused(
      await call(other, 'revokeDeviceToken', { id: gate.device.id }),
      404,
      'iot.deviceNotFound',
    )
    expectRefused(await call(guest, 'rotateDeviceToken', { id: gate.device.id }), 403)
    const revoked = await ok<Device>(owner, 'revokeDeviceToken', { id: gate.device.id })
    expect(revoked).toMatchObject({ is_revoked: true, token_hint: '' })
    expectRefused(
      await post(app(), gate.token, 'telemetry', { temperature: 21 }),
      401,
      'iot.unknownToken',
    )
    const rotated = await ok<DeviceWithToken>(owner, 'rotateDeviceToken', { id: gate.device.id })
    expect(rotated.token).not.toBe(gate.token)
    expect(rotated.device.is_revoked).toBe(false)
    expect((await post(app(), rotated.token, 'telemetry', { temperature: 22 })).statusCode).toBe(
      200,
    )
    expectRefused(await post(app(), gate.token, 'telemetry', { temperature: 23 }), 401)
    // rotating again ends the second token too
    const again = await ok<DeviceWithToken>(owner, 'rotateDeviceToken', { id: gate.device.id })
    expectRefused(await post(app(), rotated.token, 'telemetry', { temperature: 24 }), 401)
    gate = again
  })
})

describe('the device HTTP API', () => {
  let token: string

  beforeAll(async () => {
    token = (await ok<DeviceWithToken>(owner, 'provisionDevice', { poi_id: pois.lobby.id })).token
  })

  it("takes ThingsBoard's telemetry shapes: flat, {ts, values}, a list, any content type", async () => {
    const nowMs = test.clock.nowMs()
    expect(
      (await post(app(), token, 'telemetry', { temperature: 21.5, door: true })).envelope.datum,
    ).toEqual({
      count: 2,
    })
    expect(
      (await post(app(), token, 'telemetry', { ts: nowMs - 5000, values: { temperature: 21 } }))
        .envelope.datum,
    ).toEqual({ count: 1 })
    const list = [
      { ts: nowMs - 4000, values: { temperature: 20, humidity: 40 } },
      { ts: nowMs - 3000, values: { temperature: 19 } },
    ]
    expect((await post(app(), token, 'telemetry', list)).envelope.datum).toEqual({ count: 3 })
    // curl -d sends form-encoded by default; the body is JSON all the same
    const form = await post(
      app(),
      token,
      'telemetry',
      '{"pressure": 1013}',
      'application/x-www-form-urlencoded',
    )
    expect(form.envelope.datum).toEqual({ count: 1 })
    const attributes = await post(app(), token, 'attributes', {
      firmware: '1.2.0',
      config: { a: 1 },
    })
    expect(attributes.envelope.datum).toEqual({ count: 2 })
  })

  it('refuses bad input with a clear code, storing nothing of it', async () => {
    const before = await pointCount()
    const nowMs = test.clock.nowMs()
    expectRefused(await post(app(), 'not-a-token', 'telemetry', { a: 1 }), 401, 'iot.unknownToken')
    expectRefused(await post(app(), 'A'.repeat(43), 'telemetry', { a: 1 }), 401, 'iot.unknownToken')
    expectRefused(await post(app(), token, 'telemetry', '{"a": 1,'), 400, 'request.invalidJson')
    expectRefused(await post(app(), token, 'telemetry', ''), 400, 'iot.notJsonObject')
    expectRefused(await post(app(), token, 'telemetry', '42'), 400, 'iot.notJsonObject')
    const huge = JSON.stringify({ blob: 'x'.repeat(1024 * 1024) })
    expectRefused(await post(app(), token, 'telemetry', huge), 413, 'iot.bodyTooLarge')
    const manyKeys = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index]),
    )
    const tooMany = await post(app(), token, 'telemetry', manyKeys)
    expectRefused(tooMany, 400, 'iot.tooManyKeys')
    expect(tooMany.envelope.message).toContain(String(iotLimits.maxKeysPerMessage))
    expectRefused(await post(app(), token, 'telemetry', { ['k'.repeat(65)]: 1 }), 400, 'iot.badKey')
    expectRefused(await post(app(), token, 'telemetry', { 'a\u0001b': 1 }), 400, 'iot.badKey')
    expectRefused(
      await post(app(), token, 'telemetry', [
        { ts: nowMs, values: { temperature: 1 } },
        { ts: nowMs, values: { temperature: '20' } },
      ]),
      400,
      'iot.valueNotNumber',
    )
    expectRefused(
      await post(app(), token, 'telemetry', '{"temperature": NaN}'),
      400,
      'request.invalidJson',
    )
    expectRefused(
      await post(app(), token, 'telemetry', '{"temperature": 1e999}'),
      400,
      'iot.valueNotFinite',
    )
    expectRefused(
      await post(app(), token, 'telemetry', { ts: nowMs + 2 * 86_400_000, values: { a: 1 } }),
      400,
      'iot.badTimestamp',
    )
    expectRefused(
      await post(app(), token, 'telemetry', { ts: 'yesterday', values: { a: 1 } }),
      400,
      'iot.badTimestamp',
    )
    const messages = Array.from({ length: iotLimits.maxMessagesPerRequest + 1 }, (_, index) => ({
      ts: nowMs - index,
      values: { a: index },
    }))
    expectRefused(await post(app(), token, 'telemetry', messages), 400, 'iot.tooManyMessages')
    const points = Array.from({ length: 200 }, (_, index) => ({
      ts: nowMs - index,
      values: Object.fromEntries(Array.from({ length: 60 }, (_, key) => [`k${key}`, key])),
    }))
    expectRefused(await post(app(), token, 'telemetry', points), 400, 'iot.tooManyPoints')
    expectRefused(await post(app(), token, 'telemetry', { status: 5 }), 400, 'iot.badStatus')
    expectRefused(await post(app(), token, 'attributes', [{ a: 1 }]), 400, 'iot.notJsonObject')
    expectRefused(
      await post(app(), token, 'attributes', {
        notes: 'x'.repeat(iotLimits.attributeMaxJsonLength),
      }),
      400,
      'iot.attributeTooLong',
    )
    expectRefused(await post(app(), token, 'attributes', { status: 'fire' }), 400, 'iot.badStatus')
    expect(await pointCount()).toBe(before)
    // the server stays up and the device can go on
    expect((await post(app(), token, 'telemetry', { temperature: 18 })).statusCode).toBe(200)
  })
})

describe('the per-device rate limit', () => {
  it('refuses a flooding device with 429 while other devices go on', async () => {
    const limited = await createTestApp({
      env: { IOT_DEVICE_REQUESTS_PER_SECOND: '1', IOT_DEVICE_REQUEST_BURST: '3' },
    })
    try {
      const token = await signIn(limited.app, testEditor)
      const project = await createProject(limited.app, token, { name: 'Flood' })
      const camera = await libraryCamera(limited.app, token)
      const tokens: string[] = []
      for (const code of ['F-1', 'F-2']) {
        const poi = await okPoi<PoiDetail>(limited.app, { token }, 'creatPoi', {
          ...cityPoi(project, code, code),
          category_id: camera.id,
        })
        const answer = await callApi<DeviceWithToken>(limited.app, {
          url: iotRoutes.provisionDevice.path,
          token,
          json: { poi_id: poi.id },
        })
        tokens.push(answer.envelope.datum.token)
      }
      const [flooder, calm] = tokens as [string, string]
      for (let index = 0; index < 3; index++) {
        expect((await post(limited.app, flooder, 'telemetry', { a: index })).statusCode).toBe(200)
      }
      const refused = await post(limited.app, flooder, 'telemetry', { a: 4 })
      expectRefused(refused, 429, 'iot.deviceRateLimited')
      expect(refused.headers['retry-after']).toBe('1')
      expect((await post(limited.app, calm, 'telemetry', { a: 1 })).statusCode).toBe(200)
      limited.clock.advanceMs(1000)
      expect((await post(limited.app, flooder, 'telemetry', { a: 5 })).statusCode).toBe(200)
    } finally {
      await limited.close()
    }
  }, 60_000)
})

describe('getDeviceTimeseries', () => {
  let device: Device
  let token: string
  /** Three hours of one point per 10 s, from a minute-aligned but not hour-aligned start. */
  let startMs: number
  const raw: Array<{ ts: number; value: number }> = []

  beforeAll(async () => {
    const made = await ok<ProvisionedDevices>(owner, 'provisionDevices', {
      projectid: city.id,
      poi_ids: [pois.gate.id, pois.hall.id],
    })
    expect(made.count).toBe(0)
    const devices = await ok<Device[]>(owner, 'findDevices', { projectid: city.id })
    device = devices.find((entry) => entry.devicecode === 'S-HALL')!
    token = (await ok<DeviceWithToken>(owner, 'rotateDeviceToken', { id: device.id })).token
    const hourMs = 3_600_000
    startMs = Math.floor((test.clock.nowMs() - 5 * hourMs) / hourMs) * hourMs + 17 * 60_000
    for (let index = 0; index < 3 * 360; index++) {
      raw.push({ ts: startMs + index * 10_000, value: Math.round(Math.sin(index / 7) * 1000) / 10 })
    }
    for (let start = 0; start < raw.length; start += 500) {
      const batch = raw
        .slice(start, start + 500)
        .map((point) => ({ ts: point.ts, values: { temperature: point.value } }))
      expect((await post(app(), token, 'telemetry', batch)).envelope.datum).toEqual({
        count: batch.length,
      })
    }
  })

  /** The expected aggregates of the raw points, bucketed as the contract says. */
  const expected = (
    from: number,
    to: number,
    interval: number,
    agg: (values: number[]) => number,
  ) => {
    const buckets = new Map<number, number[]>()
    for (const point of raw) {
      if (point.ts < from || point.ts >= to) continue
      const bucket = Math.floor(point.ts / interval) * interval
      buckets.set(bucket, [...(buckets.get(bucket) ?? []), point.value])
    }
    return [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([ts, values]) => ({ ts, value: agg(values) }))
  }
  const average = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / values.length

  it('answers raw points oldest first, at most limit', async () => {
    const answer = await ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
      device_id: device.id,
      keys: 'temperature,humidity',
      startTs: startMs,
      endTs: startMs + 3_600_000,
      limit: 5,
    })
    expect(answer.temperature).toEqual(raw.slice(0, 5))
    expect(answer.humidity).toEqual([])
  })

  it('answers every aggregation over an unaligned range exactly (rollups in the middle, finer at the ends)', async () => {
    const from = startMs + 35_000
    const to = startMs + 2 * 3_600_000 + 125_000
    for (const [agg, reduce] of [
      ['AVG', average],
      ['MIN', (values: number[]) => Math.min(...values)],
      ['MAX', (values: number[]) => Math.max(...values)],
      ['SUM', (values: number[]) => values.reduce((sum, value) => sum + value, 0)],
      ['COUNT', (values: number[]) => values.length],
    ] as const) {
      for (const interval of [3_600_000, 60_000, 90_000]) {
        const answer = await ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
          id: pois.hall.id,
          keys: ['temperature'],
          startTs: from,
          endTs: to,
          interval,
          agg,
          limit: 10_000,
        })
        const want = expected(from, to, interval, reduce)
        expect(answer.temperature?.length, `${agg} ${interval}`).toBe(want.length)
        answer.temperature?.forEach((point, index) => {
          expect(point.ts).toBe(want[index]!.ts)
          expect(point.value).toBeCloseTo(want[index]!.value, 6)
        })
      }
    }
  })

  it('reads hours from the rollups: answers stay once the raw points are gone', async () => {
    const hourMs = 3_600_000
    const from = Math.ceil(startMs / hourMs) * hourMs
    const to = from + 2 * hourMs
    const before = await ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
      projectid: city.id,
      devicecode: 'S-HALL',
      keys: 'temperature',
      startTs: from,
      endTs: to,
      interval: hourMs,
      agg: 'AVG',
    })
    expect(before.temperature).toHaveLength(2)
    // as the retention sweep does after IOT_RAW_RETENTION_DAYS
    const series = app()
      .deps.database.db.selectFrom('iot_series')
      .select('id')
      .where('device_id', '=', device.id)
    await app().deps.database.db.deleteFrom('iot_points').where('series_id', 'in', series).execute()
    const after = await ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
      device_id: device.id,
      keys: 'temperature',
      startTs: from,
      endTs: to,
      interval: hourMs,
      agg: 'AVG',
    })
    expect(after).toEqual(before)
  })

  it('sums a re-sent point once (a gateway retry)', async () => {
    const ts = startMs - 60_000
    const answer = async () =>
      ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
        device_id: device.id,
        keys: 'retried',
        startTs: ts,
        endTs: ts + 60_000,
        interval: 60_000,
        agg: 'COUNT',
      })
    await post(app(), token, 'telemetry', { ts, values: { retried: 5 } })
    await post(app(), token, 'telemetry', { ts, values: { retried: 5 } })
    expect((await answer()).retried).toEqual([{ ts, value: 1 }])
  })

  it('stores a batch once when part of it was sent before (the multi-row insert path)', async () => {
    const minute = Math.floor((startMs - 10 * 60_000) / 60_000) * 60_000
    const messages = (count: number) =>
      Array.from({ length: count }, (_, second) => ({
        ts: minute + second * 1000,
        values: { chunked: second },
      }))
    await post(app(), token, 'telemetry', messages(30))
    // 60 points: the first 50 hold the 30 already stored, the last 10 are all new
    await post(app(), token, 'telemetry', messages(60))
    const answer = await ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
      device_id: device.id,
      keys: 'chunked',
      startTs: minute,
      endTs: minute + 60_000,
      interval: 60_000,
      agg: 'SUM',
    })
    // 0 + 1 + … + 59, each point summed once
    expect(answer.chunked).toEqual([{ ts: minute, value: 1770 }])
    const raw = await ok<DeviceTimeseries>(owner, 'getDeviceTimeseries', {
      device_id: device.id,
      keys: 'chunked',
      startTs: minute,
      endTs: minute + 60_000,
      limit: 1000,
    })
    expect(raw.chunked).toHaveLength(60)
  })

  it('is for project readers, and refuses bad ranges', async () => {
    const body = {
      device_id: device.id,
      keys: 'temperature',
      startTs: startMs,
      endTs: startMs + 60_000,
    }
    expect(
      (await ok<DeviceTimeseries>({ projectToken: shareToken }, 'getDeviceTimeseries', body))
        .temperature,
    ).toBeDefined()
    expect(
      (await ok<DeviceTimeseries>(admin, 'getDeviceTimeseries', body)).temperature,
    ).toBeDefined()
    expectRefused(await call(other, 'getDeviceTimeseries', body), 404, 'iot.deviceNotFound')
    expectRefused(await call(guest, 'getDeviceTimeseries', body), 404, 'iot.deviceNotFound')
    expectRefused(await call(undefined, 'getDeviceTimeseries', body), 401)
    expectRefused(
      await call(owner, 'getDeviceTimeseries', { ...body, device_id: undefined }),
      400,
      'iot.nameTheDevice',
    )
    expectRefused(
      await call(owner, 'getDeviceTimeseries', { ...body, endTs: startMs }),
      400,
      'iot.rangeOrder',
    )
    expectRefused(
      await call(owner, 'getDeviceTimeseries', { ...body, agg: 'AVG' }),
      400,
      'iot.intervalRequired',
    )
    expectRefused(
      await call(owner, 'getDeviceTimeseries', {
        ...body,
        endTs: startMs + 400 * 86_400_000,
        interval: 1000,
        agg: 'MAX',
      }),
      400,
      'iot.tooManyBuckets',
    )
    expectRefused(await call(owner, 'getDeviceTimeseries', { ...body, agg: 'MEDIAN' }), 400)
  })
})

describe('status codes and alarm records', () => {
  let token: string
  let deviceId: string

  const alarmsOf = async (caller: Caller, filter: Record<string, unknown> = {}) =>
    ok<AlarmPage>(caller, 'findAlarms', { projectid: city.id, ...filter })
  const poiState = async () =>
    (
      await app()
        .deps.database.db.selectFrom('pois')
        .select('state')
        .where('id', '=', pois.gate.id)
        .executeTakeFirstOrThrow()
    ).state

  beforeAll(async () => {
    const devices = await ok<Device[]>(owner, 'findDevices', { projectid: city.id })
    deviceId = devices.find((device) => device.devicecode === 'S-GATE')!.id
    token = (await ok<DeviceWithToken>(owner, 'rotateDeviceToken', { id: deviceId })).token
  })

  it("sets the device's and its POI's status, and raises one alarm while it is uncleared", async () => {
    await post(app(), token, 'telemetry', { status: 2 })
    expect(await poiState()).toBe('2')
    expect((await alarmsOf(owner)).total).toBe(0)
    await post(app(), token, 'telemetry', { status: 3, temperature: 80 })
    expect(await poiState()).toBe('3')
    const device = (await ok<Device[]>(owner, 'findDevices', { projectid: city.id })).find(
      (d) => d.id === deviceId,
    )
    expect(device?.status).toBe(3)
    let page = await alarmsOf(owner)
    expect(page.total).toBe(1)
    expect(page.list[0]).toMatchObject({
      device_id: deviceId,
      poi_id: pois.gate.id,
      devicecode: 'S-GATE',
      code: 3,
      state: 'active',
      source: 'device',
      count: 1,
    })
    // still 3: no new record; back to normal and to 3 again: the same record, counted
    await post(app(), token, 'telemetry', { status: 3 })
    await post(app(), token, 'telemetry', { status: 2 })
    await post(app(), token, 'attributes', { status: 3 })
    page = await alarmsOf(owner)
    expect(page.total).toBe(1)
    expect(page.list[0]?.count).toBe(2)
  })

  it('goes active → acknowledged → cleared with who and when; a new report after clearing is a new record', async () => {
    const [alarm] = (await alarmsOf(owner, { state: 'open' })).list
    expectRefused(
      await call(other, 'updateAlarm', { id: alarm!.id, state: 'acknowledged' }),
      404,
      'alarm.notFound',
    )
    expectRefused(await call(guest, 'updateAlarm', { id: alarm!.id, state: 'acknowledged' }), 403)
    expectRefused(
      await call({ projectToken: shareToken }, 'updateAlarm', { id: alarm!.id, state: 'cleared' }),
      401,
    )
    const acknowledged = await ok<Alarm>(owner, 'updateAlarm', {
      id: alarm!.id,
      state: 'acknowledged',
      note: 'crew on the way',
    })
    expect(acknowledged).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: testEditor.name,
      note: 'crew on the way',
    })
    expect(acknowledged.acknowledged_at).not.toBeNull()
    expectRefused(
      await call(owner, 'updateAlarm', { id: alarm!.id, state: 'acknowledged' }),
      409,
      'alarm.alreadyAcknowledged',
    )
    const cleared = await ok<Alarm>(admin, 'updateAlarm', { id: alarm!.id, state: 'cleared' })
    expect(cleared).toMatchObject({ state: 'cleared', cleared_by: testAdmin.name })
    expectRefused(
      await call(owner, 'updateAlarm', { id: alarm!.id, state: 'cleared' }),
      409,
      'alarm.alreadyCleared',
    )
    await post(app(), token, 'telemetry', { status: 2 })
    await post(app(), token, 'telemetry', { status: 3 })
    expect((await alarmsOf(owner)).total).toBe(2)
    expect((await alarmsOf(owner, { state: 'cleared' })).total).toBe(1)
  })

  it('raises alarms for codes 11, 31, 41 too, and none for 0, 1, 2', async () => {
    const before = (await alarmsOf(owner)).total
    for (const status of [0, 1, 11, 2, 31, 2, 41]) {
      expect((await post(app(), token, 'telemetry', { status })).statusCode).toBe(200)
    }
    const page = await alarmsOf(owner, { state: 'active' })
    expect(page.list.map((alarm) => alarm.code).sort((a, b) => a - b)).toEqual([3, 11, 31, 41])
    expect((await alarmsOf(owner)).total).toBe(before + 3)
    expect((await alarmsOf(owner, { code: 11 })).total).toBe(1)
  })

  it('simulates an alarm for an editor, counted with the open record of the same code', async () => {
    const added = await ok<Alarm>(owner, 'addAlarm', {
      poi_id: pois.gate.id,
      code: 41,
      note: 'drill',
    })
    expect(added).toMatchObject({ code: 41, count: 2, note: 'drill' })
    const fresh = await ok<Alarm>(owner, 'addAlarm', { device_id: deviceId, code: 3 })
    expect(fresh.count).toBe(2)
    expectRefused(await call(owner, 'addAlarm', { device_id: deviceId, code: 2 }), 400)
    expectRefused(await call(owner, 'addAlarm', { code: 3 }), 400, 'alarm.nameTheDevice')
    expectRefused(
      await call(other, 'addAlarm', { device_id: deviceId, code: 3 }),
      404,
      'iot.deviceNotFound',
    )
    expectRefused(await call(guest, 'addAlarm', { device_id: deviceId, code: 3 }), 403)
  })

  it('lists alarms to project readers only, and deletes for editors', async () => {
    expect((await alarmsOf({ projectToken: shareToken })).total).toBeGreaterThan(0)
    expectRefused(await call(guest, 'findAlarms', { projectid: city.id }), 403, 'project.foreign')
    expectRefused(await call(other, 'findAlarms', { projectid: city.id }), 403, 'project.foreign')
    expectRefused(await call(undefined, 'findAlarms', { projectid: city.id }), 401)
    const { list, total } = await alarmsOf(owner, { pageSize: 1 })
    expect(list).toHaveLength(1)
    expectRefused(await call(other, 'deleteAlarm', { id: list[0]!.id }), 404, 'alarm.notFound')
    expect(await ok(owner, 'deleteAlarm', { id: list[0]!.id })).toEqual({ deleted: 1 })
    expect((await alarmsOf(owner)).total).toBe(total - 1)
  })
})

describe('a deleted project', () => {
  it('takes its devices along: their tokens are refused', async () => {
    const ownerToken = (owner as { token: string }).token
    const doomed = await createProject(app(), ownerToken, { name: 'Doomed' })
    const camera = await libraryCamera(app(), ownerToken)
    const poi = await okPoi<PoiDetail>(app(), owner, 'creatPoi', {
      ...cityPoi(doomed, 'D', 'D-1'),
      category_id: camera.id,
    })
    const { token } = await ok<DeviceWithToken>(owner, 'provisionDevice', { poi_id: poi.id })
    expect((await post(app(), token, 'telemetry', { a: 1 })).statusCode).toBe(200)
    const deleted = await callApi(app(), {
      url: '/web/project/deleteProject',
      token: ownerToken,
      json: { id: doomed.id },
    })
    expect(deleted.envelope.code).toBe('0')
    expectRefused(await post(app(), token, 'telemetry', { a: 2 }), 401, 'iot.unknownToken')
  })
})
