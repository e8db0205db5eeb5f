/**
 * The in-browser half of bench/city-style-frames.ts: the real city engine (MapLibre with an
 * offline background style, deck.gl overlay) tilted to 70° so the sky fills the top of the
 * 1920×1080 frame, in three cases whose order rotates by round: `sunny` (no weather), `rain`
 * and `snow`. Each frame turns the camera a step and waits for the map to draw it and read
 * pixels back (`city.sampleStylePixels`), so SwiftShader's GPU work is in the time.
 */
import type { WeatherStyle } from '../../engine/api/style-commands'
import { Engine } from '../../engine/core/engine'
import { defaultSceneStyle } from '../../engine/testing/default-scene-style'
import { runWeatherCases, type WeatherFramesConfig } from '../lib/weather-cases-page'

/** What the driver asks for. */
export type CityStyleFramesConfig = WeatherFramesConfig

/** What the page measured, per case. */
export interface CityStyleFramesResult {
  frames: Record<WeatherStyle, number[]>
  particleCounts: Record<WeatherStyle, number>
}

declare global {
  interface Window {
    runCityStyleFramesBench(config: CityStyleFramesConfig): Promise<CityStyleFramesResult>
  }
}

const centre = { lng: 121.6, lat: 31.2 }

window.runCityStyleFramesBench = async (config) => {
  const container = document.getElementById('map') as HTMLElement
  const engine = new Engine()
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'bench',
    center: centre,
    zoom: 16,
    basemap: {
      kind: 'offline',
      style: {
        version: 8,
        sources: {},
        layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
      },
    },
    tilesets: [],
  })
  const particleCounts: CityStyleFramesResult['particleCounts'] = { sunny: 0, rain: 0, snow: 0 }
  const frame = async (step: number) => {
    await engine.run('city.flyTo', {
      ...centre,
      zoom: 16,
      pitch: 70,
      bearing: (step / config.framesPerRound) * 360,
      durationMs: 0,
    })
    await engine.run('city.sampleStylePixels')
  }
  const frames = await runWeatherCases(config, {
    name: 'city-style-frames',
    applyStyle: (weather) =>
      engine.run('city.setStyle', { style: defaultSceneStyle({ weather, ground: 'none' }) }),
    frame,
    afterCase: async (weather) => {
      await new Promise((resolve) => requestAnimationFrame(resolve))
      particleCounts[weather] = engine.getSnapshot().city.style.particleCount
    },
  })
  engine.dispose()
  return { frames, particleCounts }
}
