import { iotLimits, isDeviceStatusCode, statusKey } from '../../../contract/iot'
import { AppError } from '../../http/app-error'

/**
 * Reads the bodies of the device API (ThingsBoard's shapes, contract/iot.ts) into points, in one
 * plain pass that refuses at the first problem with a message naming the limit or the key. Pure:
 * the HTTP route and, later, the MQTT subscriber share it.
 */

/** One message of a telemetry body: a time and its numeric values. */
export interface TelemetryMessage {
  ts: number
  values: Array<[key: string, value: number]>
}

/** A telemetry body read: its messages, how many points, and the status it reports (if any). */
export interface TelemetryBatch {
  messages: TelemetryMessage[]
  pointCount: number
  /** The status code of the latest message that carries one. */
  status: { code: number; ts: number } | undefined
}

/** An attributes body read: JSON text per key, and the status it reports (if any). */
export interface AttributeBatch {
  values: Array<[key: string, json: string]>
  status: number | undefined
}

/**
 * Parses a body's text as JSON. No scan of the text first (the /web/ parser's check of depth and
 * key counts cost ten times the parse on a 25 KB telemetry body): the body is at most
 * {@link iotLimits.maxBodyBytes}, so the parse is bounded, and the per-message limits below name
 * what is too much. A nesting too deep for the parser fails it, and is answered as invalid JSON.
 */
export function parseIngestJson(text: string): unknown {
  if (text.trim() === '') throw new AppError('validation', 'iot.notJsonObject')
  try {
    return JSON.parse(text)
  } catch {
    throw new AppError('validation', 'request.invalidJson')
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const controlCharacters = /[\u0000-\u001f\u007f]/

function checkKey(key: string): void {
  if (key.length === 0 || key.length > iotLimits.keyMaxLength || controlCharacters.test(key)) {
    throw new AppError('validation', 'iot.badKey', { maximum: iotLimits.keyMaxLength })
  }
}

function checkKeyCount(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object)
  if (keys.length > iotLimits.maxKeysPerMessage) {
    throw new AppError('validation', 'iot.tooManyKeys', {
      maximum: iotLimits.maxKeysPerMessage,
      count: keys.length,
    })
  }
  return keys
}

/** A key's name as a message parameter: never longer than a valid key. */
const shownKey = (key: string) => key.slice(0, iotLimits.keyMaxLength)

function numberOf(key: string, value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value !== 'number') {
    throw new AppError('validation', 'iot.valueNotNumber', { key: shownKey(key) })
  }
  // JSON has no NaN, but 1e999 parses to Infinity
  if (!Number.isFinite(value)) {
    throw new AppError('validation', 'iot.valueNotFinite', { key: shownKey(key) })
  }
  return value
}

function checkTimestamp(ts: unknown, nowMs: number): number {
  if (
    typeof ts !== 'number' ||
    !Number.isSafeInteger(ts) ||
    ts <= 0 ||
    ts > nowMs + iotLimits.maxFutureSkewMs
  ) {
    throw new AppError('validation', 'iot.badTimestamp')
  }
  return ts
}

function checkStatus(value: number): void {
  if (!isDeviceStatusCode(value)) throw new AppError('validation', 'iot.badStatus')
}

/** One message: `{ts, values}` or a flat object of values at the server's time. */
function readMessage(item: unknown, nowMs: number, checkedKeys: Set<string>): TelemetryMessage {
  if (!isPlainObject(item)) throw new AppError('validation', 'iot.notJsonObject')
  const isTimestamped = 'values' in item && 'ts' in item
  const ts = isTimestamped ? checkTimestamp(item.ts, nowMs) : nowMs
  const source = isTimestamped ? item.values : item
  if (!isPlainObject(source)) throw new AppError('validation', 'iot.notJsonObject')
  const keys = checkKeyCount(source)
  const values: Array<[string, number]> = new Array(keys.length)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    // the messages of a batch repeat the same keys: each is checked once
    if (!checkedKeys.has(key)) {
      checkKey(key)
      checkedKeys.add(key)
    }
    const value = numberOf(key, source[key])
    if (key === statusKey) checkStatus(value)
    values[index] = [key, value]
  }
  return { ts, values }
}

/**
 * Reads a telemetry body (parsed JSON): a flat object, `{ts, values}`, or a list of those.
 * Throws a `validation` AppError naming the first problem; nothing of a refused body is kept.
 */
export function readTelemetry(body: unknown, nowMs: number): TelemetryBatch {
  const items = Array.isArray(body) ? body : [body]
  if (items.length > iotLimits.maxMessagesPerRequest) {
    throw new AppError('validation', 'iot.tooManyMessages', {
      maximum: iotLimits.maxMessagesPerRequest,
      count: items.length,
    })
  }
  const messages: TelemetryMessage[] = []
  let pointCount = 0
  let status: TelemetryBatch['status']
  const checkedKeys = new Set<string>()
  for (const item of items) {
    const message = readMessage(item, nowMs, checkedKeys)
    pointCount += message.values.length
    if (pointCount > iotLimits.maxPointsPerRequest) {
      throw new AppError('validation', 'iot.tooManyPoints', {
        maximum: iotLimits.maxPointsPerRequest,
        count: countPoints(items),
      })
    }
    for (const [key, value] of message.values) {
      if (key === statusKey && (status === undefined || message.ts >= status.ts)) {
        status = { code: value, ts: message.ts }
      }
    }
    if (message.values.length > 0) messages.push(message)
  }
  return { messages, pointCount, status }
}

/** How many values a refused body holds, for its message (it is at most 1,000 messages). */
function countPoints(items: readonly unknown[]): number {
  let count = 0
  for (const item of items) {
    if (!isPlainObject(item)) continue
    const source = 'values' in item && isPlainObject(item.values) ? item.values : item
    count += Object.keys(source).length
  }
  return count
}

/** Reads an attributes body: one flat object of any JSON values. */
export function readAttributes(body: unknown): AttributeBatch {
  if (!isPlainObject(body)) throw new AppError('validation', 'iot.notJsonObject')
  const keys = checkKeyCount(body)
  const values: Array<[string, string]> = []
  let status: number | undefined
  for (const key of keys) {
    checkKey(key)
    const value = body[key]
    const json = JSON.stringify(value)
    if (json.length > iotLimits.attributeMaxJsonLength) {
      throw new AppError('validation', 'iot.attributeTooLong', {
        key: shownKey(key),
        maximum: iotLimits.attributeMaxJsonLength,
      })
    }
    if (key === statusKey) {
      if (typeof value !== 'number') throw new AppError('validation', 'iot.badStatus')
      checkStatus(value)
      status = value
    }
    values.push([key, json])
  }
  return { values, status }
}
