/**
 * The in-browser half of bench/city-style-frames.ts: the real city engine (MapLibre with an
 * offline background style, deck.gl overlay) tilted to 70° so the sky fills the top of the
 * 1920×1080 frame, in three cases whose order rotates by round: `sunny` (no weather), `rain`
 * and `snow`. Each frame turns the camera a step and waits for the map to draw it and read
 * pixels back (`city.sampleStylePixels`), so SwiftShader's GPU work is in the time.
 */
import type { SceneStyle, WeatherStyle } from '../../engine/api/style-commands'
import { Engine } from '../../engine/core/engine'
import { quietRound } from '../lib/page-rounds'

/** What the driver asks for. */
export interface CityStyleFramesConfig {
  rounds: number
  warmupRounds: number
  framesPerRound: number
}

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

function style(weather: WeatherStyle): SceneStyle {
  return {
    sky: 1,
    weather,
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
  }
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10
}

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
  const names: WeatherStyle[] = ['sunny', 'rain', 'snow']
  const frames: CityStyleFramesResult['frames'] = { sunny: [], rain: [], snow: [] }
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
  for (let round = 0; round < config.warmupRounds + config.rounds; round++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(round + offset) % names.length]!
      await engine.run('city.setStyle', { style: style(name) })
      const isTimed = round >= config.warmupRounds
      await quietRound(
        `${name} round ${round + 1}`,
        async () => {
          await frame(0)
          for (let step = 0; step < config.framesPerRound; step++) {
            const startedAt = performance.now()
            await frame(step)
            if (isTimed) frames[name].push(performance.now() - startedAt)
          }
        },
        isTimed,
      )
      await new Promise((resolve) => requestAnimationFrame(resolve))
      particleCounts[name] = engine.getSnapshot().city.style.particleCount
      console.log(`[city-style-frames] round ${round} ${name}: median ${median(frames[name])} ms`)
    }
  }
  engine.dispose()
  return { frames, particleCounts }
}
