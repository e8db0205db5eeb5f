/** Where a map looks: its centre and zoom. */
export interface MapView {
  center: { lng: number; lat: number }
  zoom: number
}

/**
 * Where a map opens when nothing better is known: the region of the browser's locale
 * (`navigator.languages`, e.g. `en-GB` → the United Kingdom), so a new user sees land they know
 * instead of open sea. Views frame each country's land at the offline basemap's scale.
 */
export const regionViews: Readonly<Record<string, MapView>> = {
  KR: { center: { lng: 127.8, lat: 36.4 }, zoom: 6 },
  KP: { center: { lng: 127.2, lat: 40.2 }, zoom: 5.5 },
  CN: { center: { lng: 108, lat: 34 }, zoom: 3.4 },
  HK: { center: { lng: 114.17, lat: 22.32 }, zoom: 8 },
  MO: { center: { lng: 113.55, lat: 22.17 }, zoom: 8 },
  TW: { center: { lng: 120.95, lat: 23.7 }, zoom: 6.5 },
  JP: { center: { lng: 138.5, lat: 36.2 }, zoom: 4.5 },
  SG: { center: { lng: 103.82, lat: 1.35 }, zoom: 8 },
  MY: { center: { lng: 102, lat: 4.2 }, zoom: 5 },
  VN: { center: { lng: 105.8, lat: 21 }, zoom: 5 },
  TH: { center: { lng: 101, lat: 13.5 }, zoom: 5 },
  IN: { center: { lng: 79, lat: 22 }, zoom: 3.8 },
  AU: { center: { lng: 134, lat: -26 }, zoom: 3.2 },
  NZ: { center: { lng: 172.5, lat: -41.5 }, zoom: 4.5 },
  US: { center: { lng: -98.5, lat: 39.5 }, zoom: 3.3 },
  CA: { center: { lng: -100, lat: 57 }, zoom: 2.8 },
  MX: { center: { lng: -102.5, lat: 23.6 }, zoom: 4.2 },
  BR: { center: { lng: -52, lat: -12 }, zoom: 3.4 },
  GB: { center: { lng: -2.5, lat: 54 }, zoom: 4.8 },
  IE: { center: { lng: -8, lat: 53.4 }, zoom: 6 },
  FR: { center: { lng: 2.4, lat: 46.6 }, zoom: 5 },
  DE: { center: { lng: 10.4, lat: 51.1 }, zoom: 5.2 },
  ES: { center: { lng: -3.7, lat: 40.3 }, zoom: 5 },
  IT: { center: { lng: 12.6, lat: 42.5 }, zoom: 5 },
  NL: { center: { lng: 5.3, lat: 52.2 }, zoom: 6.5 },
  RU: { center: { lng: 60, lat: 58 }, zoom: 2.3 },
  ZA: { center: { lng: 24.7, lat: -29 }, zoom: 4.5 },
}

/** The UI language's home when the browser names no region we know. */
const languageViews: Record<string, MapView> = {
  ko: regionViews.KR!,
  zh: regionViews.CN!,
}

/** The whole world, centred on the continents (a map that opens here always shows land). */
export const worldView: MapView = { center: { lng: 30, lat: 25 }, zoom: 1.2 }

/** The region subtag of a BCP 47 tag (`zh-Hant-TW` → `TW`), or undefined. */
export function regionOfLocale(tag: string): string | undefined {
  for (const part of tag.split(/[-_]/).slice(1)) {
    if (/^[A-Za-z]{2}$/.test(part)) return part.toUpperCase()
  }
  return undefined
}

/**
 * The view of the first browser locale whose region we know; else the UI language's home
 * (Korea in ko, China in zh); else the world.
 */
export function localeRegionView(browserLocales: readonly string[], language: string): MapView {
  for (const tag of browserLocales) {
    const region = regionOfLocale(tag)
    const view = region === undefined ? undefined : regionViews[region]
    if (view) return view
  }
  for (const tag of browserLocales) {
    const view = languageViews[tag.split(/[-_]/)[0]!.toLowerCase()]
    if (view) return view
  }
  return languageViews[language] ?? worldView
}

/** The browser's locales, most preferred first (none outside a browser). */
export function browserLocales(): readonly string[] {
  const navigatorLike = globalThis.navigator as Navigator | undefined
  if (!navigatorLike) return []
  return navigatorLike.languages?.length ? navigatorLike.languages : [navigatorLike.language]
}
