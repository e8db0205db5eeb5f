/**
 * Lets the event loop run a task (e.g. a message that says "abort") in the middle of long
 * synchronous work. A MessageChannel round trip takes microseconds, where `setTimeout(0)` is
 * clamped to 1–4 ms, which would cost several percent of the extraction's time.
 */
export interface TaskYielder {
  yield(): Promise<void>
  /** Frees the channel; in Node an open port would keep the process alive. */
  close(): void
}

/** Creates a yielder; close it when the work is done. */
export function createTaskYielder(): TaskYielder {
  const channel = new MessageChannel()
  const waiting: (() => void)[] = []
  channel.port1.onmessage = () => waiting.shift()?.()
  return {
    yield: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve)
        channel.port2.postMessage(null)
      }),
    close: () => {
      channel.port1.close()
      channel.port2.close()
      for (const resolve of waiting.splice(0)) resolve()
    },
  }
}
