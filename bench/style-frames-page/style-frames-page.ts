/**
 * The in-browser half of bench/style-frames.ts: the real engine (building handlers, style
 * controller, SBM decode worker) draws a seeded 8-floor building at 1920×1080 under the
 * default style with a grass ground, in three cases whose order rotates by round: `sunny` (no
 * weather), `rain` and `snow`. Each frame moves the camera along a fixed orbit, renders and
 * reads pixels back (`building.sampleStylePixels`), so SwiftShader's GPU work is in the time.
 */
import type { SceneStyle, WeatherStyle } from '../../engine/api/style-commands'
import { Engine } from '../../engine/core/engine'
import { boxSbm } from '../../engine/building/testing/box-sbm'
import { quietRound } from '../lib/page-rounds'

/** What the driver asks for. */
export interface StyleFramesConfig {
  rounds: number
  warmupRounds: number
  framesPerRound: number
}

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

function style(weather: WeatherStyle): SceneStyle {
  return {
    sky: 1,
    weather,
    ground: 'grassland',
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
  const names: WeatherStyle[] = ['sunny', 'rain', 'snow']
  const frames: StyleFramesResult['frames'] = { sunny: [], rain: [], snow: [] }
  const drawCalls: StyleFramesResult['drawCalls'] = { sunny: 0, rain: 0, snow: 0 }
  const particleCounts: StyleFramesResult['particleCounts'] = { sunny: 0, rain: 0, snow: 0 }
  const frame = async (step: number) => {
    const angle = (step / config.framesPerRound) * Math.PI * 2
    await engine.run('building.setCamera', {
      position: [Math.cos(angle) * 60, 20 + Math.sin(angle * 2) * 6, Math.sin(angle) * 60],
      target: centre,
    })
    await engine.run('building.sampleStylePixels')
  }
  for (let round = 0; round < config.warmupRounds + config.rounds; round++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(round + offset) % names.length]!
      await engine.run('building.setStyle', { style: style(name) })
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
      const snapshot = engine.getSnapshot().building
      drawCalls[name] = snapshot.render?.drawCalls ?? 0
      particleCounts[name] = snapshot.style.particleCount
      console.log(`[style-frames] round ${round} ${name}: median ${median(frames[name])} ms`)
    }
  }
  engine.dispose()
  return { frames, drawCalls, particleCounts }
}
