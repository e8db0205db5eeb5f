import { Trans, useLingui } from '@lingui/react/macro'
import { type KeyboardEvent, useState } from 'react'
import { templateLimits } from '../../api/templates'
import { Button, TextField, toast } from '../../ui'
import { type AttributeValues, attributeProblem } from './template-form'

const emptyAttribute: AttributeValues = { property_column: '', column_des: '', column_example: '' }

/**
 * The three fields of a static attribute (English name as an identifier, display name, display
 * value) and its add button, checked by SPEC §5's rules before `onAdd` runs. Not a `<form>`: it
 * also sits inside the basic tab's form (a level's attributes), so Enter in a field adds here
 * instead of submitting the outer form.
 */
export function AttributeForm({
  hasTemplate,
  takenColumns = [],
  isBusy = false,
  testIdPrefix = 'attribute',
  onAdd,
}: {
  /** False before the template's first save ('add the basic attributes first'). */
  hasTemplate: boolean
  /** English names already used where this attribute goes (checked here, not only on save). */
  takenColumns?: readonly string[]
  isBusy?: boolean
  testIdPrefix?: string
  /** Adds the checked, trimmed attribute; resolves true when it was added (the form clears). */
  onAdd: (values: AttributeValues) => Promise<boolean> | boolean
}) {
  const { t } = useLingui()
  const [values, setValues] = useState<AttributeValues>(emptyAttribute)

  async function add() {
    if (isBusy) return
    const problem = attributeProblem(values, hasTemplate ? '' : null)
    if (problem === 'noTemplate') {
      toast.warning(t`Please add the basic attributes first.`)
      return
    }
    if (problem === 'incomplete') {
      toast.warning(t`Please fill in everything completely.`)
      return
    }
    if (problem === 'notIdentifier') {
      toast.warning(t`The English name may hold only letters, digits and underscores.`)
      return
    }
    const column = values.property_column.trim()
    if (takenColumns.includes(column)) {
      toast.warning(t`There is already an attribute named ${column}.`)
      return
    }
    const added = await onAdd({
      property_column: column,
      column_des: values.column_des.trim(),
      column_example: values.column_example.trim(),
    })
    if (added) setValues(emptyAttribute)
  }

  const set = (key: keyof AttributeValues, value: string) =>
    setValues((current) => ({ ...current, [key]: value }))
  const addOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    void add()
  }
  return (
    <div className="ts-template-attributes__form">
      <TextField
        label={t`Name (English)`}
        value={values.property_column}
        maxLength={templateLimits.propertyColumnMaxLength}
        placeholder="e.g. brand"
        hint={t`Letters, digits and underscores.`}
        onChange={(event) => set('property_column', event.target.value)}
        onKeyDown={addOnEnter}
        data-testid={`${testIdPrefix}-column`}
      />
      <TextField
        label={t`Display name`}
        value={values.column_des}
        maxLength={templateLimits.columnTextMaxLength}
        onChange={(event) => set('column_des', event.target.value)}
        onKeyDown={addOnEnter}
        data-testid={`${testIdPrefix}-des`}
      />
      <TextField
        label={t`Display value`}
        value={values.column_example}
        maxLength={templateLimits.columnTextMaxLength}
        onChange={(event) => set('column_example', event.target.value)}
        onKeyDown={addOnEnter}
        data-testid={`${testIdPrefix}-example`}
      />
      <Button variant="primary" isBusy={isBusy} onClick={() => void add()}>
        <Trans>Add attribute</Trans>
      </Button>
    </div>
  )
}

/** One row of {@link AttributeTable}. */
export interface AttributeRow extends AttributeValues {
  /** A stable key: the stored id, or the English name of a level's attribute. */
  key: string
}

/** Static attributes as a table, each with a delete button. */
export function AttributeTable({
  rows,
  onDelete,
  testId = 'attribute-table',
}: {
  rows: readonly AttributeRow[]
  onDelete: (row: AttributeRow) => void
  testId?: string
}) {
  const { t } = useLingui()
  return (
    <table className="ts-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Name (English)</Trans>
          </th>
          <th scope="col">
            <Trans>Display name</Trans>
          </th>
          <th scope="col">
            <Trans>Display value</Trans>
          </th>
          <th scope="col">
            <span className="ts-visually-hidden">
              <Trans>Actions</Trans>
            </span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const attributeName = row.column_des
          return (
            <tr key={row.key}>
              <th scope="row">{row.property_column}</th>
              <td>{row.column_des}</td>
              <td>{row.column_example}</td>
              <td className="ts-table__actions">
                <Button
                  variant="ghost"
                  onClick={() => onDelete(row)}
                  aria-label={t`Delete ${attributeName}`}
                >
                  <Trans>Delete</Trans>
                </Button>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
