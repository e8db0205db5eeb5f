import type { CaptureCamera } from '../../api/visit'
import type { EngineHandle } from '../../engine-bridge'

/** How long the camera flies between tour views and to a chosen view (milliseconds). */
export const tourFlightMs = 1_500

/**
 * Flies the building camera to a saved view (issue 19 "flying tour transitions"); settles when
 * the flight ends, also when the user took over or the scene is gone (never rejects, so a tour
 * goes on).
 */
export function flyToView(engine: EngineHandle, camera: CaptureCamera): Promise<unknown> {
  return engine
    .run('building.flyCamera', { ...camera, durationMs: tourFlightMs })
    .catch(() => undefined)
}
