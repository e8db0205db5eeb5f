import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Work over long lists on the request thread (creating 100,000 POIs, building their rows and
 * answers) runs in slices: once a slice has held the event loop for `sliceMs`, the loop gets a
 * turn (timers, sockets, other requests) before the next item. Without it a 2,000-POI create
 * held every other request for ~0.5 s (issue 13).
 */
export interface EventLoopSlices {
  /** True when the current slice has used its time: `await turn()` before going on. */
  isDue(): boolean
  /** Gives the event loop a turn and starts a new slice. */
  turn(): Promise<void>
  /** Gives a turn only when the slice is used up (one call per item is cheap). */
  pause(): Promise<void>
}

/** Slice length that keeps other requests' waits short without many extra turns. */
export const defaultSliceMs = 5

/** Starts slicing from now. */
export function createEventLoopSlices(sliceMs = defaultSliceMs): EventLoopSlices {
  let sliceStartedAtMs = performance.now()
  const slices: EventLoopSlices = {
    isDue: () => performance.now() - sliceStartedAtMs >= sliceMs,
    async turn() {
      await nextTurn()
      sliceStartedAtMs = performance.now()
    },
    async pause() {
      if (slices.isDue()) await slices.turn()
    },
  }
  return slices
}

/** `items.map(map)` in slices of the event loop (order kept). */
export async function mapInSlices<Item, Result>(
  slices: EventLoopSlices,
  items: readonly Item[],
  map: (item: Item, index: number) => Result,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length)
  for (let index = 0; index < items.length; index++) {
    if (slices.isDue()) await slices.turn()
    results[index] = map(items[index]!, index)
  }
  return results
}

/** `items.flatMap(map)` in slices of the event loop (order kept). */
export async function flatMapInSlices<Item, Result>(
  slices: EventLoopSlices,
  items: readonly Item[],
  map: (item: Item, index: number) => readonly Result[],
): Promise<Result[]> {
  const results: Result[] = []
  for (let index = 0; index < items.length; index++) {
    if (slices.isDue()) await slices.turn()
    for (const result of map(items[index]!, index)) results.push(result)
  }
  return results
}
