import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { DrawTypeNumber } from '../../../../engine/api'

/** SPEC §9 draw types, by number. */
export const drawTypeNames: Record<DrawTypeNumber, MessageDescriptor> = {
  1: msg`Circle`,
  2: msg`Point`,
  3: msg`Polyline`,
  4: msg`Polygon`,
  5: msg`Inflection point`,
}

/** Why a drawn shape cannot be saved (workers/geodesy issue codes). */
export const issueTexts: Record<string, MessageDescriptor> = {
  tooFewPoints: msg`This shape has too few points.`,
  tooManyPoints: msg`This shape has too many points.`,
  coordinateOutOfRange: msg`A point is outside the map.`,
  circleRadiusOutOfRange: msg`The circle is too small or too large.`,
  polygonTooWide: msg`The polygon is too large.`,
  polygonSelfIntersecting: msg`The polygon crosses itself. Draw it again so that no edges cross.`,
  polygonWithoutArea: msg`The polygon has no area.`,
}

/** Square metres or metres in the user's language, two decimals. */
export function useMeasureFormat() {
  const { i18n } = useLingui()
  const format = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 2 })
  return {
    squareMeters: (value: number) => `${format.format(value)} m²`,
    meters: (value: number) => `${format.format(value)} m`,
  }
}

/** Circles and polygons have an area; the other types a length (or nothing, a point). */
export const isAreaType = (type: number) => type === 1 || type === 4
