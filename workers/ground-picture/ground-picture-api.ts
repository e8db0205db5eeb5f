import * as Comlink from 'comlink'
import {
  type GroundPicture,
  type PictureScale,
  paintGroundPicture,
  type WorldBox,
} from './ground-picture-paint'
import { type PackedDrawings, unpackDrawings } from './packed-drawings'

/**
 * What the ground-picture worker serves: one paint a call, the drawings handed over packed
 * (packed-drawings.ts) and its pixels transferred back.
 */
export const groundPictureApi = {
  paint(drawings: PackedDrawings, region: WorldBox, scale: PictureScale): GroundPicture {
    const picture = paintGroundPicture(unpackDrawings(drawings), region, scale)
    return Comlink.transfer(picture, [picture.pixels.buffer, picture.drawnSpans.buffer])
  },
}
