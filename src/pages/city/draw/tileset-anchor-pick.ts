import { proxy } from 'valtio'
import type { CityTilesetPointPick } from '../../../../engine/api'
import type { EngineHandle } from '../../../engine-bridge'

/**
 * Picking an anchor's relative coordinates on a tileset (issue 18): while `tilesetId` is set, a
 * click on the map is meant for the anchor point set tab, which reads the last `pick` (and
 * `sequence` changes with every pick, so the same point picked twice fills the form again).
 * `missed` counts clicks that found none of that tileset's surface.
 */
export const tilesetAnchorPick = proxy<{
  tilesetId: string | null
  pick: CityTilesetPointPick | null
  sequence: number
  missed: number
}>({ tilesetId: null, pick: null, sequence: 0, missed: 0 })

/**
 * A click on the map while picking: the point of the chosen tileset drawn there, in its own
 * coordinates, ends the pick; a click beside it (the basemap, another tileset) keeps picking.
 */
export async function pickTilesetAnchorAt(
  engine: EngineHandle,
  point: { x: number; y: number },
): Promise<void> {
  const tilesetId = tilesetAnchorPick.tilesetId
  if (tilesetId === null) return
  const pick = await engine.run('city.pickTilesetPoint', point).catch(() => null)
  if (tilesetAnchorPick.tilesetId !== tilesetId) return
  if (!pick || pick.tilesetId !== tilesetId) {
    tilesetAnchorPick.missed += 1
    return
  }
  tilesetAnchorPick.pick = pick
  tilesetAnchorPick.sequence += 1
  tilesetAnchorPick.tilesetId = null
}
