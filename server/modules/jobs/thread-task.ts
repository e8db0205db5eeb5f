import { parentPort } from 'node:worker_threads'
import type { ThreadProgress, ThreadReply } from './thread-runner'

/** What a task's handler may do besides answering. */
export interface ThreadTaskContext {
  /** Tells the request thread how far the task has got, 0–1 (the runner's `onProgress`). */
  reportProgress(fraction: number): void
}

/**
 * The thread side of {@link createThreadRunner}: answers each `{ taskId, input }` with the
 * handler's value (its `transfer` buffers moved, not copied) or the failure's stack as text;
 * the handler's progress reports go ahead of the answer.
 * Call once at the top of a task thread's module.
 */
export function serveThreadTasks<Input, Value>(
  handler: (
    input: Input,
    context: ThreadTaskContext,
  ) => Promise<{ value: Value; transfer?: ArrayBuffer[] }>,
): void {
  const port = parentPort
  if (!port) throw new Error('serveThreadTasks runs only in a worker thread')
  port.on('message', async ({ taskId, input }: { taskId: number; input: Input }) => {
    let reply: ThreadReply<Value>
    try {
      const reportProgress = (progress: number) =>
        port.postMessage({ taskId, progress } satisfies ThreadProgress)
      const { value, transfer = [] } = await handler(input, { reportProgress })
      reply = { taskId, ok: true, value }
      port.postMessage(reply, transfer)
      return
    } catch (error) {
      reply = { taskId, ok: false, failure: String((error as Error)?.stack ?? error) }
    }
    port.postMessage(reply)
  })
}
