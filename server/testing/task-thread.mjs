// A task thread for the job tests (plain JavaScript, so it needs no loader): answers
// { taskId, input } like serveThreadTasks does. `input.spin` never answers (a runaway job),
// `input.hoard` allocates until the thread's heap limit stops it, `input.crash` exits,
// `input.progress` (a list of fractions) is reported as progress first; anything else is echoed
// back.
import { parentPort } from 'node:worker_threads'

parentPort.on('message', ({ taskId, input }) => {
  if (input.spin) for (;;) {}
  if (input.hoard) {
    const kept = []
    for (;;) kept.push(new Array(1_000_000).fill(kept.length))
  }
  if (input.crash) process.exit(3)
  for (const progress of input.progress ?? []) parentPort.postMessage({ taskId, progress })
  parentPort.postMessage({ taskId, ok: true, value: input })
})
