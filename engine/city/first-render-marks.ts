/**
 * User Timing marks (`performance.mark('city:<step>')`) of the steps from a city's open to its
 * first drawn tile, so a Chromium trace and the city-tiles bench show where that time goes.
 * Each step is marked once per scene: nothing here runs per frame or per tile.
 */
export function markCityStep(step: string): void {
  performance.mark(`city:${step}`)
}
