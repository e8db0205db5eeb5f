import type { MapPlaceProperties } from '../../../contract/geo'
import { type Place, shippedGeocoderInstance } from './geocoder'

/** Rank for map styling: 0 capitals and megacities … 3 small places. */
function placeRank(place: Place): number {
  if (place.featureClass.startsWith('Admin-0 capital') || place.population >= 10_000_000) return 0
  if (place.population >= 3_000_000) return 1
  if (place.population >= 500_000) return 2
  return 3
}

let countriesJson: string | undefined
let placesJson: string | undefined

/**
 * The offline map style's data as GeoJSON text (decisions.md "Maps"): the shipped Natural Earth
 * country outlines and populated places. Served at `/web/maps/*.geojson` for the console's map
 * and copied into a city project's offline package; built once, then kept.
 */
export const offlineMapData = {
  countries(): string {
    countriesJson ??= JSON.stringify(shippedGeocoderInstance().countriesGeoJson())
    return countriesJson
  },
  places(): string {
    placesJson ??= JSON.stringify({
      type: 'FeatureCollection',
      features: shippedGeocoderInstance()
        .places()
        .map((place) => ({
          type: 'Feature',
          properties: {
            id: place.id,
            nameEn: place.nameEn,
            nameZh: place.nameZh,
            nameKo: place.nameKo,
            population: place.population,
            rank: placeRank(place),
          } satisfies MapPlaceProperties,
          geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
        })),
    })
    return placesJson
  },
}
