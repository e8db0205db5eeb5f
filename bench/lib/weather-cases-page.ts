/**
 * The page side both weather-frames benchmarks share (bench/style-frames.ts for the building,
 * bench/city-style-frames.ts for the city): the timing loop over the three cases — `sunny` (no
 * weather), `rain`, `snow` — whose order rotates by round, each round a quiet round of timed
 * frames. The scene-specific parts (how the style
 * is applied, how one frame is moved, drawn and read back, what is recorded after a case) come
 * from the page.
 */
import type { WeatherStyle } from '../../engine/api/style-commands'
import { quietRound } from './page-rounds'
import type { WeatherFramesConfig } from './weather-frames'

export type { WeatherFramesConfig }

/** The cases, in their first round's order. */
export const weatherCases: readonly WeatherStyle[] = ['sunny', 'rain', 'snow']

/** How a page draws its scene for {@link runWeatherCases}. */
export interface WeatherScene {
  /** Log prefix, e.g. `style-frames`. */
  name: string
  applyStyle(weather: WeatherStyle): Promise<unknown>
  /** Moves the camera to frame `step` of a round, draws and reads the pixels back. */
  frame(step: number): Promise<unknown>
  /** Called after each case's round (record draw calls, particles…). */
  afterCase(weather: WeatherStyle): void | Promise<void>
}

/** Runs every round of every case; the frame times of the timed rounds, per case. */
export async function runWeatherCases(
  config: WeatherFramesConfig,
  scene: WeatherScene,
): Promise<Record<WeatherStyle, number[]>> {
  const frames: Record<WeatherStyle, number[]> = { sunny: [], rain: [], snow: [] }
  for (let round = 0; round < config.warmupRounds + config.rounds; round++) {
    for (let offset = 0; offset < weatherCases.length; offset++) {
      const weather = weatherCases[(round + offset) % weatherCases.length]!
      await scene.applyStyle(weather)
      const isTimed = round >= config.warmupRounds
      await quietRound(
        `${weather} round ${round + 1}`,
        async () => {
          await scene.frame(0)
          for (let step = 0; step < config.framesPerRound; step++) {
            const startedAt = performance.now()
            await scene.frame(step)
            if (isTimed) frames[weather].push(performance.now() - startedAt)
          }
        },
        isTimed,
      )
      await scene.afterCase(weather)
      console.log(`[${scene.name}] round ${round} ${weather}: median ${median(frames[weather])} ms`)
    }
  }
  return frames
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10
}
