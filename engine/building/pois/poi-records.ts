import type { ScenePoi } from '../../api/poi-commands'

/**
 * The POIs handed to the building scene, kept column by column: positions in one Float64Array
 * (the per-frame projection walks it without touching 100,000 objects), everything else in
 * parallel arrays. Removal swaps the last POI into the hole, so indices stay dense; a POI's
 * index may change on removal and is never handed out.
 */
export class PoiRecords {
  private readonly indexById = new Map<string, number>()
  ids: string[] = []
  pois: ScenePoi[] = []
  /** x, y, z per POI. */
  positions = new Float64Array(0)
  /** Bumped on every change: what depends on the set (models, labels) rebuilds lazily. */
  revision = 0

  /** How many POIs there are. */
  get count(): number {
    return this.ids.length
  }

  /** The index of a POI, or -1. */
  indexOf(id: string): number {
    return this.indexById.get(id) ?? -1
  }

  /** The POI with this id, if any. */
  get(id: string): ScenePoi | undefined {
    const index = this.indexById.get(id)
    return index === undefined ? undefined : this.pois[index]
  }

  /** Replaces every POI. */
  replace(pois: readonly ScenePoi[]): void {
    this.indexById.clear()
    this.ids = []
    this.pois = []
    this.positions = new Float64Array(Math.max(16, pois.length) * 3)
    this.upsert(pois)
  }

  /** Adds or changes POIs by id. */
  upsert(pois: readonly ScenePoi[]): void {
    for (const poi of pois) {
      let index = this.indexById.get(poi.id)
      if (index === undefined) {
        index = this.ids.length
        this.indexById.set(poi.id, index)
        this.ids.push(poi.id)
        this.pois.push(poi)
        this.grow(index + 1)
      } else {
        this.pois[index] = poi
      }
      this.positions[index * 3] = poi.position[0]
      this.positions[index * 3 + 1] = poi.position[1]
      this.positions[index * 3 + 2] = poi.position[2]
    }
    this.revision++
  }

  /** Removes POIs by id; unknown ids are ignored. */
  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const index = this.indexById.get(id)
      if (index === undefined) continue
      const last = this.ids.length - 1
      if (index !== last) {
        const movedId = this.ids[last]!
        this.ids[index] = movedId
        this.pois[index] = this.pois[last]!
        this.positions.copyWithin(index * 3, last * 3, last * 3 + 3)
        this.indexById.set(movedId, index)
      }
      this.ids.pop()
      this.pois.pop()
      this.indexById.delete(id)
    }
    this.revision++
  }

  private grow(count: number): void {
    if (count * 3 <= this.positions.length) return
    const grown = new Float64Array(Math.max(count * 3, this.positions.length * 2))
    grown.set(this.positions)
    this.positions = grown
  }
}

/** Whether a POI is a usable scene POI (finite position, ids present); bad ones are refused. */
export function poiProblem(poi: ScenePoi): string | null {
  if (!poi || typeof poi.id !== 'string' || poi.id === '') return 'a POI has no id'
  if (typeof poi.templateId !== 'string') return `POI '${poi.id}' has no template`
  const position = poi.position
  if (!Array.isArray(position) || position.length !== 3 || !position.every(Number.isFinite)) {
    return `POI '${poi.id}' needs a position of three finite numbers`
  }
  for (const angle of [poi.heading, poi.pitch, poi.roll]) {
    if (!Number.isFinite(angle)) return `POI '${poi.id}' needs finite heading, pitch and roll`
  }
  return null
}
