import {
  defaultStyleSetting,
  parseRgba,
  type RgbaValue,
  type StyleSetting,
} from '../../contract/style'
import type { SceneStyle, StyleColor } from '../api/style-commands'

/**
 * How a project's saved style (`/globalsetting`, snake case, SPEC field names) reads as the
 * style the scenes draw: one reading for the console's scenes (src/pages/bim4/style) and the
 * offline package's viewer, so a package looks as the online preview does.
 */

/** A saved colour as the engine takes it; unreadable text (never saved) falls back to `fallback`. */
function colorOf(text: string, fallback: string): StyleColor {
  const parsed = parseRgba(text)
  const color: RgbaValue = typeof parsed === 'string' ? (parseRgba(fallback) as RgbaValue) : parsed
  return { r: color.r, g: color.g, b: color.b, a: color.a }
}

/** The server's setting as the engine's `setStyle` takes it. */
export function sceneStyleOf(setting: StyleSetting): SceneStyle {
  const defaults = defaultStyleSetting
  return {
    sky: setting.air_style,
    weather: setting.weather_style,
    ground: setting.ground_style,
    fog: {
      isOn: setting.fog_is_on,
      color: colorOf(setting.fog_color, defaults.fog_color),
      density: setting.fog_density,
    },
    ambientLight: { color: colorOf(setting.ambient_light_color, defaults.ambient_light_color) },
    directionalLight: {
      color: colorOf(setting.directional_light_color, defaults.directional_light_color),
      intensity: setting.directional_light_intensity,
    },
    hemisphereLight: {
      skyColor: colorOf(setting.hemisphere_sky_color, defaults.hemisphere_sky_color),
      groundColor: colorOf(setting.hemisphere_ground_color, defaults.hemisphere_ground_color),
      intensity: setting.hemisphere_intensity,
    },
    visualDistance: { min: setting.visual_distance_min, max: setting.visual_distance_max },
    mouseSpeed: setting.mouse_speed,
    zoomFactors: { min: setting.min_zoom_factor, max: setting.max_zoom_factor },
    wheelScale: setting.wheel_scale,
    pathColor: colorOf(setting.path_color, defaults.path_color),
  }
}
