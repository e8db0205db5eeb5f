// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { shippedGeocoderInstance } from '../../../server/modules/geo/geocoder'
import { localeRegionView, regionOfLocale, regionViews, worldView } from './locale-region'

/**
 * The address picker opens over land the user knows: each region view's centre lies in that
 * country by the very outlines the offline map draws (the server's shipped Natural Earth data).
 */
describe('locale region views', () => {
  it('centre each region on its own country', () => {
    const geocoder = shippedGeocoderInstance()
    for (const region of Object.keys(regionViews)) {
      const view = localeRegionView([`xx-${region}`], 'en')
      const found = geocoder.reverse({ lng: view.center.lng, lat: view.center.lat }, 'en')
      // the country-scale data folds the smallest territories into their neighbours: land is
      // what matters there
      if (['HK', 'MO', 'SG'].includes(region)) expect(found.countryCode, region).not.toBeNull()
      else expect(found.countryCode, region).toBe(region)
    }
  })

  it('reads the region of a locale tag', () => {
    expect(regionOfLocale('en-GB')).toBe('GB')
    expect(regionOfLocale('zh-Hant-TW')).toBe('TW')
    expect(regionOfLocale('ko')).toBeUndefined()
    expect(localeRegionView(['fr'], 'fr' as never)).toEqual(worldView)
  })
})
