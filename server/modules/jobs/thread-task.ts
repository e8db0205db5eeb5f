import { parentPort } from 'node:worker_threads'
import type { ThreadReply } from './thread-runner'

/**
 * The thread side of {@link createThreadRunner}: answers each `{ taskId, input }` with the
 * handler's value (its `transfer` buffers moved, not copied) or the failure's stack as text.
 * Call once at the top of a task thread's module.
 */
export function serveThreadTasks<Input, Value>(
  handler: (input: Input) => Promise<{ value: Value; transfer?: ArrayBuffer[] }>,
): void {
  const port = parentPort
  if (!port) throw new Error('serveThreadTasks runs only in a worker thread')
  port.on('message', async ({ taskId, input }: { taskId: number; input: Input }) => {
    let reply: ThreadReply<Value>
    try {
      const { value, transfer = [] } = await handler(input)
      reply = { taskId, ok: true, value }
      port.postMessage(reply, transfer)
      return
    } catch (error) {
      reply = { taskId, ok: false, failure: String((error as Error)?.stack ?? error) }
    }
    port.postMessage(reply)
  })
}
