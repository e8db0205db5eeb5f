import { randomUUID } from 'node:crypto'
import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type Clock, timestampOf } from '../time/clock'
import type { MessageSender } from './message-sender'
import type { OutboxRepository } from './outbox.repository'

/** One line of `DATA_DIR/outbox.jsonl`. */
export interface OutboxFileLine {
  to: string
  text: string
  /** ISO UTC time the message was sent. */
  at: string
}

/**
 * The default provider (decisions.md "Accounts"): each message becomes a row of the `outbox`
 * table and one JSON line `{"to","text","at"}` appended to `outboxFile`, so the product works on
 * one machine and an operator (or a test) can read what would have been sent.
 */
export function createOutboxSender(dependencies: {
  outbox: OutboxRepository
  outboxFile: string
  clock: Clock
}): MessageSender {
  const { outbox, outboxFile, clock } = dependencies
  let folderReady: Promise<unknown> | undefined
  return {
    async send(message) {
      const at = timestampOf(clock.nowMs())
      await outbox.insert({
        id: randomUUID(),
        channel: message.channel,
        recipient: message.to,
        subject: message.subject ?? null,
        text: message.text,
        created_at: at,
      })
      folderReady ??= mkdir(dirname(outboxFile), { recursive: true })
      await folderReady
      const line: OutboxFileLine = { to: message.to, text: message.text, at }
      // One write per line in append mode: concurrent sends never interleave within a line.
      await appendFile(outboxFile, `${JSON.stringify(line)}\n`, { encoding: 'utf8', flag: 'a' })
    },
  }
}
