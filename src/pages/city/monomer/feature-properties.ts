/**
 * How a picked building's batch-table properties are shown and what a saved single-building
 * model is called by default. Pure, so the rules are tested without a map.
 */

/** One row of the properties panel. */
export interface PropertyRow {
  name: string
  value: string
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

/** The rows of the panel, in the batch table's order, values cut to a readable length. */
export function propertyRows(properties: Readonly<Record<string, unknown>>): PropertyRow[] {
  return Object.entries(properties).map(([name, value]) => {
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
