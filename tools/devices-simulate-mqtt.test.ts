import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Alarm, Device, DeviceWithToken } from '../contract/iot'
import { iotRoutes } from '../contract/iot'
import type { PoiDetail } from '../contract/pois'
import { findMosquitto } from '../server/modules/iot/mqtt/mqtt-broker'
import { createProject } from '../server/routes/web/project-test-kit'
import { libraryCamera, okPoi } from '../server/routes/web/pois-test-kit'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testEditor,
} from '../server/testing/test-app'
import { discoverMqttUrl } from './device-transport'

/**
 * `npm run devices:simulate -- --transport mqtt` against the real broker (issue 17 item 10): the
 * simulator asks the server's /web/health where its mosquitto listens, connects each device
 * with its token, and what it publishes is stored by the server (status, alarm, telemetry).
 */

const run = promisify(execFile)
const hasMosquitto = findMosquitto(undefined) !== undefined
// CI installs mosquitto (.ci/run); a machine without it skips only this file, and says so
if (!hasMosquitto) console.warn('mosquitto is not installed: simulator MQTT tests skipped')

let test: TestApp
let baseUrl: string
let editorToken: string
let projectId: string

/** Runs the simulator as a person would; answers its exit code and output lines. */
async function simulate(...options: string[]) {
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'tools/devices-simulate.ts', '--url', baseUrl, ...options],
      { timeout: 60_000 },
    )
    return { code: 0, lines: stdout.trim().split('\n'), stderr: '' }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return {
      code: failed.code ?? -1,
      lines: (failed.stdout ?? '').split('\n'),
      stderr: failed.stderr ?? '',
    }
  }
}

async function newDevice(name: string): Promise<DeviceWithToken> {
  const camera = await libraryCamera(test.app, editorToken)
  const poi = await okPoi<PoiDetail>(test.app, { token: editorToken }, 'creatPoi', {
    projectid: projectId,
    name,
    category_id: camera.id,
    x: 121.5,
    y: 31.2,
    devicecode: name,
  })
  const answer = await callApi<DeviceWithToken>(test.app, {
    url: iotRoutes.provisionDevice.path,
    token: editorToken,
    json: { poi_id: poi.id },
  })
  return answer.envelope.datum
}

async function deviceNamed(name: string): Promise<Device> {
  const answer = await callApi<Device[]>(test.app, {
    url: iotRoutes.findDevices.path,
    token: editorToken,
    json: { projectid: projectId },
  })
  return answer.envelope.datum.find((device) => device.name === name)!
}

/** Waits (polling, no fixed sleep) until the server's subscriber took `count` messages. */
async function handledAtLeast(count: number): Promise<void> {
  const status = () => test.app.deps.services.mqtt.status()
  const deadline = Date.now() + 15_000
  while (status().handled < count) {
    if (Date.now() > deadline) throw new Error(`only ${status().handled} of ${count} handled`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.skipIf(!hasMosquitto)('device simulator over MQTT', () => {
  beforeAll(async () => {
    test = await createTestApp({
      env: { MQTT: 'on', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' },
    })
    await test.app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`
    editorToken = await signIn(test.app, testEditor)
    projectId = (await createProject(test.app, editorToken, { name: 'Simulator MQTT' })).id
  }, 60_000)

  afterAll(async () => {
    await test?.close()
  })

  it('finds the broker through /web/health and raises a fire alarm through it', async () => {
    expect(await discoverMqttUrl(baseUrl)).toBe(
      `mqtt://127.0.0.1:${test.app.deps.services.mqtt.status().port}`,
    )
    const { device, token } = await newDevice('SIM-MQTT-1')
    const handled = test.app.deps.services.mqtt.status().handled
    const answer = await simulate('--transport', 'mqtt', '--tokens', token, '--status', '3')
    expect(answer.code, answer.stderr).toBe(0)
    expect(JSON.parse(answer.lines.at(-1)!)).toEqual({
      sent: 1,
      transport: 'mqtt',
      statuses: [200],
    })
    await handledAtLeast(handled + 1)
    expect((await deviceNamed('SIM-MQTT-1')).status).toBe(3)
    const alarms = await callApi<{ list: Alarm[] }>(test.app, {
      url: iotRoutes.findAlarms.path,
      token: editorToken,
      json: { projectid: projectId, state: 'open' },
    })
    expect(alarms.envelope.datum.list.map((alarm) => [alarm.device_id, alarm.code])).toContainEqual(
      [device.id, 3],
    )
  })

  it('keeps sending at a rate for a duration, and the server stores the telemetry', async () => {
    const { token } = await newDevice('SIM-MQTT-2')
    const stored = test.app.deps.services.mqtt.status().stored
    const answer = await simulate(
      '--transport',
      'mqtt',
      '--tokens',
      token,
      '--rate',
      '4',
      '--duration',
      '2',
    )
    expect(answer.code, answer.stderr).toBe(0)
    const done = JSON.parse(answer.lines.at(-1)!) as Record<string, unknown>
    expect(done).toMatchObject({ done: true, refused: 0, failed: 0 })
    expect(done.messages).toBeGreaterThanOrEqual(6)
    await handledAtLeast(stored + (done.messages as number))
    expect(test.app.deps.services.mqtt.status().stored).toBeGreaterThanOrEqual(
      stored + (done.messages as number),
    )
    const device = await deviceNamed('SIM-MQTT-2')
    expect(device.last_seen_at).not.toBeNull()
  })

  it('stops with a clear message when the broker refuses a token', async () => {
    const answer = await simulate(
      '--transport',
      'mqtt',
      '--tokens',
      'x'.repeat(43),
      '--status',
      '2',
    )
    expect(answer.code).toBe(2)
    expect(answer.stderr).toMatch(/MQTT: mqtt:\/\/127\.0\.0\.1:\d+ refused a device/)
  })
})

describe('device simulator without MQTT on the server', () => {
  let plain: TestApp
  beforeAll(async () => {
    plain = await createTestApp({ env: { MQTT: 'off' } })
    await plain.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await plain?.close()
  })

  it('says the server runs no MQTT and how to send instead', async () => {
    const url = `http://127.0.0.1:${(plain.app.server.address() as AddressInfo).port}`
    await expect(discoverMqttUrl(url)).rejects.toThrow(
      "the server's MQTT ingest is off (MQTT=off): use --transport http",
    )
  })
})
