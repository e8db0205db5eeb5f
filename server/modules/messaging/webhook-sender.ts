import type { MessageSender } from './message-sender'

/** How long the gateway gets to accept a message. */
const webhookTimeoutMs = 10_000

/**
 * A real gateway (MESSAGE_WEBHOOK_URL): each message is POSTed as JSON
 * `{ channel, to, subject, text }`; any 2xx answer counts as accepted. An SMS or mail relay
 * (or a small adapter in front of one) receives it.
 */
export function createWebhookSender(options: {
  url: string
  fetchImpl?: typeof fetch
}): MessageSender {
  const fetchImpl = options.fetchImpl ?? fetch
  return {
    async send(message) {
      const response = await fetchImpl(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          channel: message.channel,
          to: message.to,
          subject: message.subject ?? null,
          text: message.text,
        }),
        signal: AbortSignal.timeout(webhookTimeoutMs),
      })
      // The body is not needed; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined)
      if (!response.ok) {
        throw new Error(`The message gateway answered HTTP ${response.status}.`)
      }
    },
  }
}
