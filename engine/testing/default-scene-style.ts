import type { SceneStyle } from '../api/style-commands'

/**
 * The SPEC §9 default style as the engine takes it (what the UI maps the server's default
 * setting to), with `overrides` on top: the starting point of the style tests and the weather
 * benchmarks, so each states only what it changes.
 */
export function defaultSceneStyle(overrides: Partial<SceneStyle> = {}): SceneStyle {
  return {
    sky: 1,
    weather: 'sunny',
    ground: 'none',
    fog: { isOn: false, color: { r: 200, g: 208, b: 216, a: 1 }, density: 0.3 },
    ambientLight: { color: { r: 0x21, g: 0x21, b: 0x21, a: 1 } },
    directionalLight: { color: { r: 0xff, g: 0xbe, b: 0x37, a: 1 }, intensity: 0.5 },
    hemisphereLight: {
      skyColor: { r: 0x70, g: 0x9f, b: 0xcd, a: 1 },
      groundColor: { r: 0x4d, g: 0x4b, b: 0x46, a: 1 },
      intensity: 0.6,
    },
    visualDistance: { min: 1, max: 1e7 },
    mouseSpeed: 1,
    zoomFactors: { min: 1, max: 1 },
    wheelScale: 1,
    ...overrides,
  }
}
