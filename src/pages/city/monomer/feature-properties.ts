/**
 * How a picked building's batch-table properties are shown and what a saved single-building
 * model is called by default. Pure, so the rules are tested without a map.
 */

/** One row of the properties panel. */
export interface PropertyRow {
  name: string
  value: string
  /** The stored value when the row shows it converted (radians shown in degrees). */
  storedValue?: string
}

const longitudeKey = /^(lon|lng|longitude)$/i
const latitudeKey = /^(lat|latitude)$/i

/**
 * Whether the feature's longitude/latitude numbers are radians, as 3D Tiles batch tables
 * (Cesium's samples among them) store them: every such number is within ±π (longitude) and
 * ±π/2 (latitude). A feature with any value outside that range stores degrees.
 */
function hasRadianCoordinates(properties: Readonly<Record<string, unknown>>): boolean {
  let count = 0
  for (const [name, value] of Object.entries(properties)) {
    const isLongitude = longitudeKey.test(name)
    if (!isLongitude && !latitudeKey.test(name)) continue
    if (typeof value !== 'number') continue
    if (Math.abs(value) > (isLongitude ? Math.PI : Math.PI / 2)) return false
    count++
  }
  return count > 0
}

/** Longest value shown in full; longer ones are cut with an ellipsis (the title shows all). */
export const maxPropertyValueLength = 200

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)))
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return value.map((item) => formatValue(item)).join(', ')
  }
  return JSON.stringify(value)
}

/**
 * The rows of the panel, in the batch table's order, values cut to a readable length;
 * longitude and latitude stored in radians are shown in degrees.
 */
export function propertyRows(properties: Readonly<Record<string, unknown>>): PropertyRow[] {
  const isRadians = hasRadianCoordinates(properties)
  return Object.entries(properties).map(([name, value]) => {
    if (
      isRadians &&
      typeof value === 'number' &&
      (longitudeKey.test(name) || latitudeKey.test(name))
    ) {
      const degrees = (value * 180) / Math.PI
      return { name, value: `${degrees.toFixed(7)}°`, storedValue: `${formatValue(value)} rad` }
    }
    const text = formatValue(value)
    return {
      name,
      value:
        text.length > maxPropertyValueLength
          ? `${text.slice(0, maxPropertyValueLength - 1)}…`
          : text,
    }
  })
}

/**
 * The name a new single-building model starts with: the feature's own name or id from its
 * batch table when it has one (`name`, `Name`, `id`…), else the fallback.
 */
export function suggestedModelName(
  properties: Readonly<Record<string, unknown>>,
  fallback: string,
): string {
  for (const key of ['name', 'Name', 'NAME', 'building', 'id', 'ID', 'Id']) {
    const value = properties[key]
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 100)
  }
  const info = properties.info
  if (info && typeof info === 'object' && 'name' in info && typeof info.name === 'string') {
    return info.name.slice(0, 100)
  }
  return fallback
}
