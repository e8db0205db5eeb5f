import type { Map as MapLibreMap } from 'maplibre-gl'

/** MapLibre's sky and light (the style spec's types, which maplibre-gl does not re-export). */
export type SkySpecification = Parameters<MapLibreMap['setSky']>[0]
export type LightSpecification = Parameters<MapLibreMap['setLight']>[0]
import type { SceneStyle, SkyStyle, StyleColor, WeatherStyle } from '../../api/style-commands'
import type { TileLighting } from '../tile-mesh-renderer'

/**
 * Pure rules of the city's style (issue 19): how a scene style maps onto MapLibre's sky, fog
 * and light and onto the tiles' lighting. The building draws the same style with three.js; the
 * numbers shared with it (sun elevation per sky) are the same here.
 */

/** The sun's elevation per sky style, degrees (the same as the building scene's). */
export const citySunElevationDeg: Record<SkyStyle, number> = { 1: 60, 2: 25, 3: 40, 4: 70 }
/** The sun's azimuth, degrees clockwise from north. */
export const citySunAzimuthDeg = 150

/** Colours of each sky as `#rrggbb`: high up and at the horizon. */
export const citySkyPalettes: Record<SkyStyle, { sky: string; horizon: string }> = {
  // a clear blue day
  1: { sky: '#3d8fe0', horizon: '#c4e0f7' },
  // the sun low at 25°: a deeper blue over a warm horizon
  2: { sky: '#2c64b0', horizon: '#f0c080' },
  // night: the milky way's stars are drawn over it (weather-layer.ts)
  3: { sky: '#03050f', horizon: '#1c2445' },
  // overcast before rain
  4: { sky: '#6c747e', horizon: '#a9afb6' },
}

/**
 * Weather particles per kind: enough to read as rain or snow, one draw call each. A software
 * GPU (SwiftShader) pays for rain by the drop (at 1080p, 50 streaks cost next to nothing where
 * 5,000 cost tens of ms; bench/README.md, city-style-frames), so rain is 2,500 streaks a little
 * longer and stronger (weather-layer.ts) rather than 5,000 fainter ones: about as much rain on
 * screen (~85 % of the streak pixels × opacity) at half the drops.
 */
export const weatherParticleCounts: Record<WeatherStyle, number> = {
  sunny: 0,
  rain: 2500,
  snow: 3000,
}
/** Stars of the milky way sky. */
export const starCount = 1500

function hex(color: StyleColor): string {
  return `#${[color.r, color.g, color.b].map((value) => value.toString(16).padStart(2, '0')).join('')}`
}

/** r, g, b 0–1 times `scale`. */
function scaled(color: StyleColor, scale: number): [number, number, number] {
  return [(color.r / 255) * scale, (color.g / 255) * scale, (color.b / 255) * scale]
}

/**
 * MapLibre's sky of a style: the sky's palette, and the fog (when on) as the fog colour taking
 * over the horizon and the far ground — the denser, the more (the fog's alpha scales it).
 */
export function citySkyOf(style: SceneStyle): SkySpecification {
  const palette = citySkyPalettes[style.sky]
  const fog = style.fog.isOn ? Math.min(1, style.fog.density * style.fog.color.a) : 0
  return {
    'sky-color': palette.sky,
    'horizon-color': palette.horizon,
    'fog-color': style.fog.isOn ? hex(style.fog.color) : palette.horizon,
    'sky-horizon-blend': 0.6,
    'horizon-fog-blend': fog,
    // 1 keeps the ground clear; the denser the fog, the closer to the centre it starts
    'fog-ground-blend': 1 - fog * 0.9,
    'atmosphere-blend': 0,
  }
}

/** MapLibre's light (it lights the basemap's extruded buildings): the style's directional light. */
export function cityLightOf(style: SceneStyle): LightSpecification {
  const light = style.directionalLight
  return {
    anchor: 'map',
    color: hex(light.color),
    intensity: Math.min(1, Math.max(0, light.intensity * light.color.a)),
    // radial, azimuth (clockwise from north), polar angle from straight up
    position: [1.15, citySunAzimuthDeg, 90 - citySunElevationDeg[style.sky]],
  }
}

/** The unit direction towards the sun of a sky, in east, north, up. */
export function citySunDirection(sky: SkyStyle): [number, number, number] {
  const elevation = (citySunElevationDeg[sky] * Math.PI) / 180
  const azimuth = (citySunAzimuthDeg * Math.PI) / 180
  return [
    Math.cos(elevation) * Math.sin(azimuth),
    Math.cos(elevation) * Math.cos(azimuth),
    Math.sin(elevation),
  ]
}

/** How strong each light is at its UI value 1 (the terms add up; about 1 lights a face fully). */
const AMBIENT_SCALE = 1.5
const SUN_SCALE = 1.2
const HEMISPHERE_SCALE = 0.8

/**
 * The tiles' lights of a style: ambient, directional (from the sky's sun) and hemisphere, each
 * its colour times its alpha and intensity.
 */
export function tileLightingOf(style: SceneStyle): TileLighting {
  const { ambientLight, directionalLight, hemisphereLight } = style
  const hemisphere = hemisphereLight.intensity * HEMISPHERE_SCALE
  return {
    ambient: scaled(ambientLight.color, ambientLight.color.a * AMBIENT_SCALE),
    sun: scaled(
      directionalLight.color,
      directionalLight.color.a * directionalLight.intensity * SUN_SCALE,
    ),
    sunDirection: citySunDirection(style.sky),
    hemisphereSky: scaled(hemisphereLight.skyColor, hemisphereLight.skyColor.a * hemisphere),
    hemisphereGround: scaled(
      hemisphereLight.groundColor,
      hemisphereLight.groundColor.a * hemisphere,
    ),
  }
}
