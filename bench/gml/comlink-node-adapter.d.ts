/**
 * Types for comlink's own worker_threads adapter, which comlink 4.4.2 ships as an .mjs with
 * only a .d.ts beside it (not found under moduleResolution Bundler).
 */
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink'
  import type { MessagePort, Worker } from 'node:worker_threads'

  /** Wraps a worker_threads Worker or MessagePort as a comlink Endpoint. */
  export default function nodeEndpoint(port: Worker | MessagePort): Endpoint
}
