import * as Comlink from 'comlink'
import {
  type GroundDrawings,
  type GroundPicture,
  type PictureScale,
  paintGroundPicture,
  type WorldBox,
} from './ground-picture-paint'

/** What the ground-picture worker serves: one paint a call, its pixels transferred back. */
export const groundPictureApi = {
  paint(drawings: GroundDrawings, region: WorldBox, scale: PictureScale): GroundPicture {
    const picture = paintGroundPicture(drawings, region, scale)
    return Comlink.transfer(picture, [picture.pixels.buffer])
  },
}
