// Entry of a conversion worker thread. Node cannot load TypeScript by itself, and a worker does
// not inherit the loader vitest uses (nor, reliably, tsx's when started from code), so the
// thread registers tsx before importing the real worker module.
import { register } from 'tsx/esm/api'

register()
await import('./conversion-worker.ts')
