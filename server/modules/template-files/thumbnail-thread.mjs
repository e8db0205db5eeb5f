// Entry of a thumbnail thread: registers tsx (a worker does not inherit the TypeScript loader),
// then loads the real module, as the conversion threads do (../building/conversion-thread.mjs).
import { register } from 'tsx/esm/api'

register()
await import('./thumbnail-worker.ts')
