import { describe, expect, it } from 'vitest'
import { parseSimulationArguments, SimulatedSensor, seededRandom } from './device-simulation'

describe('device simulator', () => {
  it('reads its options, with defaults, and refuses what it cannot do', () => {
    const options = parseSimulationArguments(
      ['--project', 'p1', '--user', 'u', '--password', 'pw', '--devices', '1000', '--rate', '200'],
      { PORT: '4431' },
    )
    expect(options).toMatchObject({
      url: 'http://127.0.0.1:4431',
      project: 'p1',
      devices: 1000,
      rate: 200,
      batch: 1,
      rotate: false,
    })
    expect(
      parseSimulationArguments(['--tokens', 'a,b', '--status', '3', '--values', 'temperature=80']),
    ).toMatchObject({ tokens: ['a', 'b'], status: 3, values: { temperature: 80 } })
    expect(() => parseSimulationArguments([])).toThrow(/--tokens/)
    expect(() => parseSimulationArguments(['--tokens', 'a', '--status', '5'])).toThrow(/status/)
    expect(() => parseSimulationArguments(['--tokens', 'a', '--rate', '-1'])).toThrow(/rate/)
    expect(() => parseSimulationArguments(['--tokens', 'a', '--speed', '1'])).toThrow(/speed/)
  })

  it('sends over HTTP unless told MQTT, and checks the broker address', () => {
    expect(parseSimulationArguments(['--tokens', 'a'])).toMatchObject({
      transport: 'http',
      mqttUrl: undefined,
    })
    expect(
      parseSimulationArguments([
        '--tokens',
        'a',
        '--transport',
        'mqtt',
        '--mqtt-url',
        'mqtt://h:4432',
      ]),
    ).toMatchObject({ transport: 'mqtt', mqttUrl: 'mqtt://h:4432' })
    expect(() => parseSimulationArguments(['--tokens', 'a', '--transport', 'udp'])).toThrow(
      '--transport must be http or mqtt',
    )
    expect(() =>
      parseSimulationArguments(['--tokens', 'a', '--transport', 'mqtt', '--mqtt-url', 'h:1883']),
    ).toThrow('--mqtt-url must be')
    expect(() => parseSimulationArguments(['--tokens', 'a', '--mqtt-url', 'mqtt://h:1'])).toThrow(
      '--mqtt-url needs --transport mqtt',
    )
  })

  it('drifts like a room, reports its status when it changes, and clears its alarms again', () => {
    const sensor = new SimulatedSensor(seededRandom(7), 0.05)
    const messages = Array.from({ length: 2000 }, () => sensor.next())
    expect(messages[0]!.status).toBe(2)
    const normal = messages.filter((message) => message.temperature! < 40)
    for (const message of normal) {
      expect(message.temperature).toBeGreaterThan(10)
      expect(message.temperature).toBeLessThan(35)
      expect(message.humidity).toBeGreaterThanOrEqual(0)
      expect(message.humidity).toBeLessThanOrEqual(100)
    }
    const statuses = messages.flatMap((message) =>
      message.status === undefined ? [] : [message.status],
    )
    expect(statuses.some((status) => [3, 11, 31, 41].includes(status))).toBe(true)
    // every alarm is followed by a return to normal
    for (let index = 0; index < statuses.length - 1; index++) {
      if (statuses[index] !== 2) expect(statuses[index + 1]).toBe(2)
    }
  })
})
