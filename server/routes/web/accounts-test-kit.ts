import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import type { Envelope } from '../../../contract/envelope'
import type { OutboxFileLine } from '../../modules/messaging/outbox-sender'
import type { ApiAnswer } from '../../testing/test-app'

/**
 * Helpers for the account routes' tests: calls from a chosen client address, and the codes the
 * outbox provider "sent" (tests read codes there, never from an answer). Test-only.
 */

/** Calls the API like `callApi`, from `clientAddress` (per-IP limits count against it). */
export async function callFrom<Datum = unknown>(
  app: FastifyInstance,
  call: {
    url: string
    method?: 'GET' | 'POST'
    clientAddress?: string
    token?: string
    json?: unknown
    form?: Record<string, string>
    headers?: Record<string, string>
  },
): Promise<ApiAnswer<Datum>> {
  const headers: Record<string, string> = { ...call.headers }
  if (call.token !== undefined) headers.token = call.token
  let payload: string | undefined
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(call.json)
  } else if (call.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    payload = new URLSearchParams(call.form).toString()
  }
  const response = await app.inject({
    method: call.method ?? 'POST',
    url: call.url,
    headers,
    remoteAddress: call.clientAddress ?? '127.0.0.1',
    ...(payload === undefined ? {} : { payload }),
  })
  return {
    statusCode: response.statusCode,
    envelope: response.json() as Envelope<Datum>,
    headers: response.headers,
  }
}

/** Every line of DATA_DIR/outbox.jsonl so far (none when nothing was sent yet). */
export async function readOutboxFile(outboxFile: string): Promise<OutboxFileLine[]> {
  let text: string
  try {
    text = await readFile(outboxFile, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as OutboxFileLine)
}

/** The messages the outbox file holds for one recipient, oldest first. */
export async function messagesTo(outboxFile: string, to: string): Promise<OutboxFileLine[]> {
  return (await readOutboxFile(outboxFile)).filter((line) => line.to === to)
}

/** The 6-digit code of the newest message to a recipient; fails when it carries none. */
export async function latestCodeTo(outboxFile: string, to: string): Promise<string> {
  const messages = await messagesTo(outboxFile, to)
  const text = messages.at(-1)?.text ?? ''
  const code = /\b(\d{6})\b/.exec(text)?.[1]
  if (code === undefined) throw new Error(`no code in the newest message to ${to}: '${text}'`)
  return code
}

/** A code that differs from `code` (for wrong-code tests). */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0')
}
