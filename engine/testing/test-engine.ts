import { unzipApi } from '../../workers/unzip/unzip-api'
import { Engine, type EngineOptions } from '../core/engine'
import { createInProcessWorker } from './in-process-worker'

/**
 * An engine for Node and happy-dom tests: the real engine and the real worker code, with the
 * unzip worker served in-process (module workers need a browser).
 */
export function createTestEngine(options: EngineOptions = {}): Engine {
  return new Engine({ createUnzipWorker: () => createInProcessWorker(unzipApi), ...options })
}
