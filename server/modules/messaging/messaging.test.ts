import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutboxFile } from '../../routes/web/accounts-test-kit'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { createOutboxSender } from './outbox-sender'
import { createWebhookSender } from './webhook-sender'

describe('the outbox provider', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('keeps each message as a table row and one JSON line, even when sent at once', async () => {
    const { app, config, clock } = testApp
    const sender = createOutboxSender({
      outbox: app.deps.repositories.outbox,
      outboxFile: config.outboxFile,
      clock,
    })
    const messages = Array.from({ length: 40 }, (_, index) => ({
      channel: 'sms' as const,
      to: '01012340000',
      text: `message ${index} "quoted"\nsecond line ${'é'.repeat(index * 50)}`,
    }))
    await Promise.all(messages.map((message) => sender.send(message)))
    const lines = await readOutboxFile(config.outboxFile)
    expect(lines).toHaveLength(40)
    expect(new Set(lines.map((line) => line.text))).toEqual(
      new Set(messages.map((message) => message.text)),
    )
    expect(lines[0]).toEqual({
      to: '01012340000',
      text: expect.any(String),
      at: new Date(clock.nowMs()).toISOString(),
    })
    const rows = await app.deps.repositories.outbox.listTo('01012340000', 100)
    expect(rows).toHaveLength(40)
  })
})

describe('the webhook provider', () => {
  const received: Array<{ body: unknown; contentType: string | undefined }> = []
  let status = 202
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        contentType: request.headers['content-type'],
      })
      response.statusCode = status
      response.end('{}')
    })
  })
  let url: string
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  it('posts each message as JSON and fails when the gateway refuses it', async () => {
    const sender = createWebhookSender({ url })
    await sender.send({ channel: 'email', to: 'a@example.com', subject: 'Hi', text: 'Code 123456' })
    expect(received.at(-1)).toEqual({
      body: { channel: 'email', to: 'a@example.com', subject: 'Hi', text: 'Code 123456' },
      contentType: 'application/json',
    })
    status = 503
    await expect(sender.send({ channel: 'sms', to: '0101', text: 'x' })).rejects.toThrow(/503/)
  })

  it('stands in for the outbox when MESSAGE_WEBHOOK_URL is set; a failing gateway answers 503', async () => {
    status = 202
    const testApp = await createTestApp({ env: { MESSAGE_WEBHOOK_URL: url } })
    try {
      const sent = await testApp.app.inject({
        method: 'POST',
        url: '/web/register/verificationSms',
        payload: { tel: '01077778888', purpose: 'register' },
      })
      expect(sent.json().code).toBe('0')
      expect(received.at(-1)?.body).toMatchObject({ channel: 'sms', to: '01077778888' })
      expect(await readOutboxFile(testApp.config.outboxFile)).toEqual([])

      status = 500
      testApp.clock.advanceMs(61_000)
      const failed = await testApp.app.inject({
        method: 'POST',
        url: '/web/register/verificationSms',
        payload: { tel: '01077778888', purpose: 'register' },
      })
      expect(failed.statusCode).toBe(503)
      // The failed send did not spend the countdown: the user may try again at once.
      status = 202
      const retried = await testApp.app.inject({
        method: 'POST',
        url: '/web/register/verificationSms',
        payload: { tel: '01077778888', purpose: 'register' },
      })
      expect(retried.json().code).toBe('0')
    } finally {
      await testApp.close()
    }
  })
})
