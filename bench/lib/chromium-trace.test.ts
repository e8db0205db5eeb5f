import { describe, expect, it } from 'vitest'
import { measureThreadCpu } from './chromium-trace'

const meta = (pid: number, tid: number, kind: 'process_name' | 'thread_name', name: string) => ({
  name: kind,
  ph: 'M',
  pid,
  tid,
  ts: 0,
  args: { name },
})
const task = (pid: number, tid: number, ts: number, dur: number, tdur: number) => ({
  name: 'ThreadControllerImpl::RunTask',
  cat: 'toplevel',
  ph: 'X',
  pid,
  tid,
  ts,
  dur,
  tdur,
})
/** A microtask checkpoint, as a worker runs the promise jobs after an `await`. */
const microtasks = (pid: number, tid: number, ts: number, dur: number, tdur: number) => ({
  ...task(pid, tid, ts, dur, tdur),
  name: 'RunMicrotasks',
  cat: 'v8.execute',
})
const mark = (name: string, ts: number) => ({
  name,
  cat: 'blink.user_timing',
  ph: 'R',
  pid: 2,
  tid: 20,
  ts,
})

describe('measureThreadCpu', () => {
  it('sums each thread of every process inside a window, outermost tasks only, workers numbered', () => {
    const trace = {
      traceEvents: [
        meta(1, 10, 'process_name', 'Browser'),
        meta(1, 11, 'thread_name', 'Chrome_IOThread'),
        meta(2, 20, 'process_name', 'Renderer'),
        meta(2, 20, 'thread_name', 'CrRendererMain'),
        meta(2, 21, 'thread_name', 'DedicatedWorker thread'),
        meta(2, 22, 'thread_name', 'DedicatedWorker thread'),
        mark('x:start:load 1', 1000),
        mark('x:end:load 1', 2000),
        // Main thread: one task inside, one nested in it (not counted again), one half outside.
        task(2, 20, 1100, 200, 150),
        task(2, 20, 1150, 50, 40),
        task(2, 20, 1900, 200, 100),
        // Two workers, numbered by first run: #1 ran only before the window.
        task(2, 21, 1200, 500, 400),
        // #2's promise jobs ran outside any task (counted), and once inside one (not again).
        microtasks(2, 21, 1750, 100, 80),
        microtasks(2, 21, 1300, 100, 80),
        task(2, 22, 500, 100, 100),
        task(1, 11, 1300, 200, 100),
        // Under 0.05 ms: left out.
        task(1, 10, 1300, 40, 30),
      ],
    }
    const windows = measureThreadCpu(JSON.stringify(trace), 'x:')
    expect(windows.get('load 1')).toEqual({
      'Renderer/DedicatedWorker thread#2': 0.48,
      'Renderer/CrRendererMain': 0.2,
      'Browser/Chrome_IOThread': 0.1,
    })
  })
})
