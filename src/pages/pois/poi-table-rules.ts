import type { PoiEntry, PoiTemplateInfo } from '../../state/pois'

/** The columns the multi-function table sorts by. */
export const poiTableSortKeys = [
  'name',
  'template',
  'kind',
  'devicecode',
  'floor',
  'heading',
] as const

/** One of {@link poiTableSortKeys}. */
export type PoiTableSortKey = (typeof poiTableSortKeys)[number]

/** The table's sort: a column and a direction. */
export interface PoiTableSort {
  key: PoiTableSortKey
  direction: 'asc' | 'desc'
}

/** The table's filters; empty fields filter nothing. */
export interface PoiTableFilter {
  /** Part of the name, device code or template name, any case. */
  text: string
  templateId: string
  kind: '' | '2D' | '3D'
  /** '' any; 'none' without a device code; 'some' with one. */
  devicecode: '' | 'none' | 'some'
}

/** No filter. */
export const emptyPoiTableFilter: PoiTableFilter = {
  text: '',
  templateId: '',
  kind: '',
  devicecode: '',
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/**
 * The rows of the table: the POIs the filter keeps, sorted (ties keep the store's order, so the
 * order is stable). One pass and one sort over 100,000 POIs.
 */
export function poiTableRows(
  entries: readonly PoiEntry[],
  templateOf: (id: string) => PoiTemplateInfo | undefined,
  filter: PoiTableFilter,
  sort: PoiTableSort,
): PoiEntry[] {
  const needle = filter.text.trim().toLocaleLowerCase()
  const kept = entries.filter((entry) => {
    const template = templateOf(entry.templateId)
    if (filter.templateId && entry.templateId !== filter.templateId) return false
    if (filter.kind && (template?.type ?? '2D') !== filter.kind) return false
    if (filter.devicecode === 'none' && entry.devicecode !== '') return false
    if (filter.devicecode === 'some' && entry.devicecode === '') return false
    if (needle === '') return true
    return (
      entry.name.toLocaleLowerCase().includes(needle) ||
      entry.devicecode.toLocaleLowerCase().includes(needle) ||
      (template?.name.toLocaleLowerCase().includes(needle) ?? false)
    )
  })
  const sign = sort.direction === 'asc' ? 1 : -1
  const textOf = (entry: PoiEntry): string => {
    switch (sort.key) {
      case 'name':
        return entry.name
      case 'template':
        return templateOf(entry.templateId)?.name ?? ''
      case 'kind':
        return templateOf(entry.templateId)?.type ?? '2D'
      case 'devicecode':
        return entry.devicecode
      case 'floor':
        return entry.floorId ?? ''
      case 'heading':
        return ''
    }
  }
  if (sort.key === 'heading') return kept.sort((a, b) => sign * (a.heading - b.heading))
  // Keys are computed once per row, not once per comparison.
  const keys = new Map(kept.map((entry) => [entry, textOf(entry)]))
  return kept.sort((a, b) => sign * collator.compare(keys.get(a) ?? '', keys.get(b) ?? ''))
}
