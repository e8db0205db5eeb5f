import type { FastifyInstance } from 'fastify'
import { callApi } from '../../server/testing/test-app'

/**
 * One paged list call through the real server (`app.inject`, so no socket noise), timed in
 * milliseconds. A wrong answer throws: a benchmark that times errors or empty pages measures
 * nothing.
 */
export async function timeListCall(
  app: FastifyInstance,
  call: { url: string; token: string; json: Record<string, unknown> },
  expectedTotal: number,
): Promise<number> {
  const startedAt = performance.now()
  const answer = await callApi<{ total: number; list: unknown[] }>(app, call)
  const elapsedMs = performance.now() - startedAt
  if (answer.envelope.code !== '0' || answer.envelope.datum.total !== expectedTotal) {
    throw new Error(`unexpected answer: ${JSON.stringify(answer.envelope).slice(0, 300)}`)
  }
  return elapsedMs
}
