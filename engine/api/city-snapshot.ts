/** What the UI may know about the open city scene (plain, JSON-safe). */
export interface CitySnapshot {
  readonly isOpen: boolean
}

export function createInitialCitySnapshot(): CitySnapshot {
  return { isOpen: false }
}
