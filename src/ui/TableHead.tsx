import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'

/**
 * The header row of a `ts-table`: one column heading per entry, and with `hasActions` a last
 * column for the row buttons whose heading only screen readers hear ("Actions").
 */
export function TableHead({
  columns,
  hasActions = false,
}: {
  columns: readonly { key: string; label: ReactNode }[]
  hasActions?: boolean
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column.key} scope="col">
            {column.label}
          </th>
        ))}
        {hasActions && (
          <th scope="col">
            <span className="ts-visually-hidden">
              <Trans>Actions</Trans>
            </span>
          </th>
        )}
      </tr>
    </thead>
  )
}
