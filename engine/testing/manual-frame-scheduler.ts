import type { FrameScheduler } from '../core/frame-scheduler'

/** A frame scheduler that runs frames only when a test says so, to count publications exactly. */
export interface ManualFrameScheduler extends FrameScheduler {
  /** Runs the callbacks requested so far, as one animation frame; returns how many ran. */
  runFrame(): number
  pendingCount(): number
}

/** Creates a {@link ManualFrameScheduler}. */
export function createManualFrameScheduler(): ManualFrameScheduler {
  let pending: ((timeMs: number) => void)[] = []
  return {
    requestFrame(callback) {
      pending.push(callback)
      return () => {
        pending = pending.filter((candidate) => candidate !== callback)
      }
    },
    runFrame() {
      const due = pending
      pending = []
      for (const callback of due) callback(performance.now())
      return due.length
    },
    pendingCount: () => pending.length,
  }
}
