/** A label that would be drawn, with where its marker is on screen. */
export interface LabelCandidate {
  /** Screen position of the marker, CSS pixels. */
  x: number
  y: number
  label: string
}

/** How markers and labels sit on screen (CSS pixels), as the layers draw them. */
export interface LabelLayout {
  /** The icon's square, centred on the marker. */
  iconSizePixels: number
  /** The label's top edge below the marker's centre. */
  labelOffsetPixels: number
  fontSizePixels: number
}

/** Width of a label as drawn: CJK characters are about a square, Latin ones about half. */
export function labelWidthPixels(label: string, fontSizePixels: number): number {
  let width = 0
  for (const character of label) {
    width += (character.codePointAt(0) ?? 0) >= 0x2e80 ? fontSizePixels : fontSizePixels * 0.6
  }
  return width
}

const cellPixels = 64

/**
 * Label declutter: which labels can be drawn without overlapping each other or another marker.
 * Candidates are taken in order (the caller puts the selection first), greedily: a label is
 * kept when its box is free, and every marker's icon box is taken before any label. Answers
 * the indices of the kept candidates. A grid of 64-pixel cells keeps it linear.
 */
export function declutterLabels(
  candidates: readonly LabelCandidate[],
  view: { width: number; height: number },
  layout: LabelLayout,
): number[] {
  const columns = Math.ceil(view.width / cellPixels) + 2
  const rows = Math.ceil(view.height / cellPixels) + 2
  const boxes: number[][] = Array.from({ length: columns * rows }, () => [])
  const cellRange = (left: number, top: number, right: number, bottom: number) => {
    const clamp = (value: number, limit: number) =>
      Math.max(0, Math.min(limit - 1, Math.floor(value / cellPixels) + 1))
    return [clamp(left, columns), clamp(top, rows), clamp(right, columns), clamp(bottom, rows)]
  }
  const isFree = (left: number, top: number, right: number, bottom: number, ownIcon: number) => {
    const [c0, r0, c1, r1] = cellRange(left, top, right, bottom)
    for (let row = r0!; row <= r1!; row++) {
      for (let column = c0!; column <= c1!; column++) {
        const list = boxes[row * columns + column]!
        for (let at = 0; at < list.length; at += 5) {
          if (list[at + 4] === ownIcon) continue
          if (
            list[at]! < right &&
            list[at + 2]! > left &&
            list[at + 1]! < bottom &&
            list[at + 3]! > top
          ) {
            return false
          }
        }
      }
    }
    return true
  }
  const take = (left: number, top: number, right: number, bottom: number, owner: number) => {
    const [c0, r0, c1, r1] = cellRange(left, top, right, bottom)
    for (let row = r0!; row <= r1!; row++) {
      for (let column = c0!; column <= c1!; column++) {
        boxes[row * columns + column]!.push(left, top, right, bottom, owner)
      }
    }
  }
  const half = layout.iconSizePixels / 2
  const inView = (candidate: LabelCandidate) =>
    candidate.x >= -half &&
    candidate.y >= -half &&
    candidate.x <= view.width + half &&
    candidate.y <= view.height + half
  candidates.forEach((candidate, index) => {
    if (!inView(candidate)) return
    take(candidate.x - half, candidate.y - half, candidate.x + half, candidate.y + half, index)
  })
  const kept: number[] = []
  candidates.forEach((candidate, index) => {
    if (!candidate.label || !inView(candidate)) return
    const halfWidth = labelWidthPixels(candidate.label, layout.fontSizePixels) / 2
    const top = candidate.y + layout.labelOffsetPixels
    const box = [candidate.x - halfWidth, top, candidate.x + halfWidth, top + layout.fontSizePixels]
    // A label may touch its own icon, never another's.
    if (!isFree(box[0]!, box[1]!, box[2]!, box[3]!, index)) return
    take(box[0]!, box[1]!, box[2]!, box[3]!, -1)
    kept.push(index)
  })
  return kept
}
