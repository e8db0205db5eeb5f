import type { ScenePoi } from '../../api/poi-commands'
import type { LabelAtlas } from './label-atlas'
import type { ClusterGrid, DeclutterGrid } from './poi-screen'
import type { ScreenQuadBatch } from './screen-quad-batch'

/** Labels tried per frame, nearest first (more would not fit or read anyway). */
const MAX_LABEL_CANDIDATES = 60
/** New label texts drawn per frame; the rest follow in the next frames. */
const MAX_NEW_LABELS_PER_FRAME = 8
const WHITE = [1, 1, 1, 1] as const

/** What one frame's labels are placed from. */
export interface LabelFrame {
  batch: ScreenQuadBatch
  labels: LabelAtlas
  declutter: DeclutterGrid
  clusters: ClusterGrid
  /** Projected POIs: x, y (CSS pixels), w per POI. */
  screen: Float32Array
  positions: Float64Array
  pois: readonly ScenePoi[]
  /** POIs drawn on their own this frame, and the clusters' cells. */
  singles: readonly number[]
  clusterCells: readonly number[]
  /** Per POI (by index), this frame: 1 when highlighted (its label comes first). */
  highlighted: Uint8Array
  width: number
  height: number
  /** Half the marker plus a gap: where a label starts right of its point. */
  gapPixels: number
}

/**
 * Places a frame's labels: each cluster's count on it, then the single POIs' names right of
 * their markers, highlighted and nearest first, each only where no earlier label is (a screen
 * grid declutters them). Answers whether some were left out to bound the frame's work (draw
 * again to add them).
 */
export function placeLabels(frame: LabelFrame): boolean {
  const { batch, labels, declutter, clusters, screen, positions, pois } = frame
  batch.begin()
  labels.startFrame()
  declutter.reset(frame.width, frame.height)
  for (const cell of frame.clusterCells) {
    const [x, y, z] = clusters.meanOf(cell)
    const slot = labels.slotOf(String(clusters.countOf(cell)))
    if (slot) batch.push(x, y, z, slot, 0, 0, slot.width, slot.height, WHITE)
  }
  const candidates = nearestLabelled(frame)
  let newLabels = 0
  let isBacklog = false
  for (const index of candidates) {
    const text = pois[index]!.label
    let slot = labels.known(text) ?? null
    if (!slot) {
      if (newLabels >= MAX_NEW_LABELS_PER_FRAME) {
        isBacklog = true
        continue
      }
      newLabels++
      slot = labels.slotOf(text)
    }
    if (!slot) continue
    const gap = frame.gapPixels
    const left = screen[index * 3]! + gap
    const top = screen[index * 3 + 1]! - slot.height / 2
    if (!declutter.tryTake(left, top, slot.width, slot.height)) continue
    const at = index * 3
    batch.push(
      positions[at]!,
      positions[at + 1]!,
      positions[at + 2]!,
      slot,
      gap + slot.width / 2,
      0,
      slot.width,
      slot.height,
      WHITE,
    )
  }
  // a full atlas starts over next frame: the labels it could not take then come
  return isBacklog || labels.isFull
}

/** Reused between frames: the labelled singles and their priorities. */
let candidateIndices = new Int32Array(0)
let candidateKeys = new Float64Array(0)

/**
 * The labelled single POIs whose labels are tried this frame: highlighted first, then nearest
 * (smallest clip w), at most {@link MAX_LABEL_CANDIDATES}, in that order (ties keep the singles'
 * order). Each priority is read once into a flat array and only the kept ones are sorted: a sort
 * of every single with a priority callback (a set lookup per comparison) was a quarter of the
 * layer's per-frame CPU with ~2,000 singles in view (issue 16, P9).
 */
export function nearestLabelled(
  frame: Pick<LabelFrame, 'singles' | 'pois' | 'screen' | 'highlighted'>,
): number[] {
  const { singles, pois, screen, highlighted } = frame
  if (candidateIndices.length < singles.length) {
    candidateIndices = new Int32Array(singles.length * 2)
    candidateKeys = new Float64Array(singles.length * 2)
  }
  let count = 0
  for (const index of singles) {
    if (pois[index]!.label === '') continue
    candidateIndices[count] = index
    candidateKeys[count] = highlighted[index] === 1 ? -1 : screen[index * 3 + 2]!
    count++
  }
  // the bound: the MAX-th smallest key (found by sorting a copy of the keys, no callback)
  let bound = Number.POSITIVE_INFINITY
  if (count > MAX_LABEL_CANDIDATES) {
    bound = candidateKeys.slice(0, count).sort()[MAX_LABEL_CANDIDATES - 1]!
  }
  const kept: number[] = []
  for (let at = 0; at < count; at++) if (candidateKeys[at]! <= bound) kept.push(at)
  // stable: equal keys keep the singles' order, as the full sort did
  kept.sort((a, b) => candidateKeys[a]! - candidateKeys[b]! || a - b)
  return kept.slice(0, MAX_LABEL_CANDIDATES).map((at) => candidateIndices[at]!)
}
