/**
 * The only place where src/ reaches the engine at run time (architecture.md §3). Everything
 * else in src/ imports from here, or imports engine types with `import type`.
 */
export { Engine, type EngineOptions, poiStatusColourOf, sceneStyleOf } from '../../engine/api'
export { connectEngine } from './connect-engine'
export { engineErrorMessage } from './engine-error-messages'
export { useFileAddressRenewal } from './file-address-renewal'
export { type EngineHandle, EngineProvider, useEngine } from './EngineProvider'
export { type SceneState, sceneStore } from './scene-store'
export { useSceneOpening } from './scene-opening'
export {
  createPoiScene,
  type PoiEngine,
  type PoiScene,
  type PoiScenePrefix,
  type PoiVerb,
} from './poi-scene'
