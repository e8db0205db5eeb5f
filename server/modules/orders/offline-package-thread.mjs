// Entry of an offline package thread. Node cannot load TypeScript by itself and a worker does
// not inherit the loader vitest or tsx use, so the thread registers tsx before importing the
// real worker module (the same approach as building/conversion-thread.mjs).
import { register } from 'tsx/esm/api'

register()
await import('./offline-package-worker.ts')
