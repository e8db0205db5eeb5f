/**
 * Outgoing SMS and e-mail go through this interface (architecture.md §5: third-party services
 * sit behind small interfaces with a local default). The default provider is the outbox
 * (./outbox-sender.ts); a real gateway is configured by environment (./webhook-sender.ts).
 */

/** A message to one phone number or e-mail address. */
export interface OutgoingMessage {
  channel: 'sms' | 'email'
  /** A phone number (sms) or an e-mail address (email). */
  to: string
  /** E-mail subject; SMS has none. */
  subject?: string
  text: string
}

/** Sends messages; rejects when the message could not be handed over. */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<void>
}
