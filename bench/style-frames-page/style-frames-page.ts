/**
 * The in-browser half of bench/style-frames.ts: the real engine (building handlers, style
 * controller, SBM decode worker) draws a seeded 8-floor building at 1920×1080 under the
 * default style with a grass ground, in three cases whose order rotates by round: `sunny` (no
 * weather), `rain` and `snow`. Each frame moves the camera along a fixed orbit, renders and
 * reads pixels back (`building.sampleStylePixels`), so SwiftShader's GPU work is in the time.
 */
import type { WeatherStyle } from '../../engine/api/style-commands'
import { Engine } from '../../engine/core/engine'
import { boxSbm } from '../../engine/building/testing/box-sbm'
import { defaultSceneStyle } from '../../engine/testing/default-scene-style'
import { runWeatherCases, type WeatherFramesConfig } from '../lib/weather-cases-page'

/** What the driver asks for. */
export type StyleFramesConfig = WeatherFramesConfig

/** What the page measured, per case. */
export interface StyleFramesResult {
  frames: Record<WeatherStyle, number[]>
  drawCalls: Record<WeatherStyle, number>
  particleCounts: Record<WeatherStyle, number>
}

declare global {
  interface Window {
    runStyleFramesBench(config: StyleFramesConfig): Promise<StyleFramesResult>
  }
}

const FLOORS = 8
const FLOOR_HEIGHT = 3.5
const HALF = 20

function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 4294967296
  }
}

function buildingUrl(): { url: string; sizeBytes: number } {
  const next = random(7)
  const boxes: {
    name: string
    size: [number, number, number]
    centre: [number, number, number]
  }[] = []
  for (let floor = 0; floor < FLOORS; floor++) {
    boxes.push({
      name: `slab ${floor}`,
      size: [HALF * 2, 0.3, HALF * 2],
      centre: [0, floor * FLOOR_HEIGHT, 0],
    })
    for (let wall = 0; wall < 30; wall++) {
      const isAlongX = wall % 2 === 0
      boxes.push({
        name: `wall ${floor}-${wall}`,
        size: [isAlongX ? 6 : 0.2, FLOOR_HEIGHT - 0.3, isAlongX ? 0.2 : 6],
        centre: [
          (next() * 2 - 1) * (HALF - 3),
          floor * FLOOR_HEIGHT + FLOOR_HEIGHT / 2,
          (next() * 2 - 1) * (HALF - 3),
        ],
      })
    }
  }
  const bytes = boxSbm(boxes, { role: 'model' })
  return { url: URL.createObjectURL(new Blob([bytes])), sizeBytes: bytes.length }
}

window.runStyleFramesBench = async (config) => {
  const canvas = document.getElementById('stage') as HTMLCanvasElement
  const engine = new Engine({ canvas })
  const model = buildingUrl()
  await engine.run('building.open', {
    description: {
      projectId: 'bench',
      name: 'bench',
      shellModelId: null,
      floors: [],
      models: [{ id: 'b', name: 'b', role: 'model', floorId: null, ...model }],
    },
  })
  const centre = [0, (FLOORS * FLOOR_HEIGHT) / 2, 0] as const
  const drawCalls: StyleFramesResult['drawCalls'] = { sunny: 0, rain: 0, snow: 0 }
  const particleCounts: StyleFramesResult['particleCounts'] = { sunny: 0, rain: 0, snow: 0 }
  const frames = await runWeatherCases(config, {
    name: 'style-frames',
    applyStyle: (weather) =>
      engine.run('building.setStyle', {
        style: defaultSceneStyle({ weather, ground: 'grassland' }),
      }),
    frame: async (step) => {
      const angle = (step / config.framesPerRound) * Math.PI * 2
      await engine.run('building.setCamera', {
        position: [Math.cos(angle) * 60, 20 + Math.sin(angle * 2) * 6, Math.sin(angle) * 60],
        target: centre,
      })
      await engine.run('building.sampleStylePixels')
    },
    afterCase: (weather) => {
      const snapshot = engine.getSnapshot().building
      drawCalls[weather] = snapshot.render?.drawCalls ?? 0
      particleCounts[weather] = snapshot.style.particleCount
    },
  })
  engine.dispose()
  return { frames, drawCalls, particleCounts }
}
