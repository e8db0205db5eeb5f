/**
 * The engine's public surface: the only engine module src/ may import (tools/check-boundaries.ts
 * enforces it). Commands, snapshots, events, errors and the Engine itself; nothing from workers/
 * is re-exported by name (the engine names what crosses, e.g. ArchiveErrorCode).
 */
export { Engine, type EngineOptions } from '../core/engine'
export { type FileAddressRenewer, setFileAddressRenewer } from '../core/file-addresses'
export { sceneStyleOf } from '../core/style-setting'
export * from './building-commands'
export * from './building-snapshot'
export * from './city-commands'
export * from './city-snapshot'
export * from './commands'
export * from './draw-commands'
export * from './navigate-commands'
export * from './track-commands'
export * from './tour-commands'
export * from './errors'
export * from './events'
export * from './ids'
export * from './poi-commands'
export * from './library-model-commands'
export * from './poi-status-commands'
export * from './material-commands'
export * from './poi-drag-commands'
export * from './snapshot'
export * from './style-commands'
export * from './visit-commands'
export * from './walk-commands'
