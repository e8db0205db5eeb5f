import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { StyleSetting } from '../../../../contract/style'

/** What a change is about, for the failure message of SPEC §8 "Style and light". */
export type StyleArea = 'sky' | 'ground' | 'weather' | 'light' | 'pathColor' | 'other'

/** The area of each field. */
export function styleAreaOf(field: keyof StyleSetting): StyleArea {
  if (field === 'air_style') return 'sky'
  if (field === 'ground_style') return 'ground'
  if (field === 'weather_style') return 'weather'
  if (field === 'path_color') return 'pathColor'
  if (field.includes('light') || field.startsWith('hemisphere')) return 'light'
  return 'other'
}

/** SPEC §8 "Style and light": a failed update says what did not change. */
export const styleFailureMessages: Record<StyleArea, MessageDescriptor> = {
  sky: msg`Failed to update the sky.`,
  ground: msg`Failed to update the ground.`,
  weather: msg`Failed to update the weather.`,
  light: msg`Failed to update the light.`,
  pathColor: msg`Failed to update the path colour.`,
  other: msg`Failed to update the style.`,
}
