import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { CategoryNode } from '../../api/templates'
import { Select } from '../../ui'
import { categoryNameText } from '../../i18n/library-names'

/** Props of {@link CategoryCascade}. */
export interface CategoryCascadeProps {
  label: ReactNode
  tree: readonly CategoryNode[]
  /** The chosen path of ids from a root. */
  value: readonly string[]
  onChange: (path: string[]) => void
  error?: ReactNode
  required?: boolean
}

/**
 * Chooses a category in a tree of any depth as a row of drop-downs, one per level: the first
 * picks the root (2D or 3D), each next one a child of the level before. Every drop-down is a
 * radix Select, so it works by keyboard (Enter to open, arrows, typeahead).
 */
export function CategoryCascade({
  label,
  tree,
  value,
  onChange,
  error,
  required,
}: CategoryCascadeProps) {
  const { t } = useLingui()
  const levels: { options: readonly CategoryNode[]; chosen: string | undefined }[] = []
  let options: readonly CategoryNode[] = tree
  for (let depth = 0; options.length > 0; depth += 1) {
    const chosen = value[depth]
    levels.push({ options, chosen })
    const node = options.find((candidate) => candidate.id === chosen)
    if (!node) break
    options = node.children
  }
  return (
    <fieldset className="ts-category-cascade" data-testid="template-category">
      <legend className="ts-field__label">{label}</legend>
      <div className="ts-category-cascade__levels">
        {levels.map((level, depth) => {
          const levelNumber = depth + 1
          return (
            <Select
              // A level is its depth; its options change with the level above, hence that choice.
              // biome-ignore lint/suspicious/noArrayIndexKey: the depth is the level's identity
              key={`${depth}-${value[depth - 1] ?? 'root'}`}
              label={t`Category level ${levelNumber}`}
              placeholder={t`Choose`}
              options={level.options.map((node) => ({
                value: node.id,
                label: categoryNameText(node),
              }))}
              value={level.chosen ?? null}
              onValueChange={(id) => onChange([...value.slice(0, depth), id])}
              required={required && depth === 0}
              error={depth === 0 ? error : undefined}
            />
          )
        })}
      </div>
    </fieldset>
  )
}
