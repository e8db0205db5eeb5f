import { Trans, useLingui } from '@lingui/react/macro'
import type { Dispatch, ReactNode, SetStateAction } from 'react'
import { NumberInput } from '../../ui'
import {
  type CopyLayout,
  type CopyLayoutKind,
  copyLayoutKinds,
  copyLimits,
  defaultCopyLayout,
} from './copy-layouts'

/** Props of {@link CopyLayoutFields}. */
export interface CopyLayoutFieldsProps {
  layout: CopyLayout
  setLayout: Dispatch<SetStateAction<CopyLayout>>
  /** The radio group's name, unique on the page. */
  radioName: string
  /** The largest count, row, column or layer number the caller allows. */
  maxCount: number
  /** The spacing inputs' step in metres. */
  spacingStep: number
}

/**
 * The copy layout choice (SPEC §9: default, single row, single column, array, multi-layer array)
 * and its counts and spacings, shared by the POI copy and the model copy dialogs.
 */
export function CopyLayoutFields({
  layout,
  setLayout,
  radioName,
  maxCount,
  spacingStep,
}: CopyLayoutFieldsProps) {
  const { t } = useLingui()
  const labels: Record<CopyLayoutKind, string> = {
    default: t`Default`,
    singleRow: t`Single row`,
    singleColumn: t`Single column`,
    array: t`Array`,
    multiLayerArray: t`Multi-layer array`,
  }
  const setField = (field: string, next: number) =>
    setLayout((current) => ({ ...current, [field]: next }) as CopyLayout)
  const count = (label: string, field: string, value: number) => (
    <NumberInput
      key={field}
      label={label}
      value={value}
      min={1}
      max={maxCount}
      step={1}
      precision={0}
      onChange={(next) => setField(field, next)}
    />
  )
  const spacing = (label: string, field: string, value: number) => (
    <NumberInput
      key={field}
      label={label}
      value={value}
      min={-copyLimits.maxSpacingMeters}
      max={copyLimits.maxSpacingMeters}
      step={spacingStep}
      precision={2}
      unit={t`m`}
      onChange={(next) => setField(field, next)}
    />
  )
  return (
    <>
      <fieldset className="ts-poi-copy__layouts">
        <legend>
          <Trans>Layout</Trans>
        </legend>
        {copyLayoutKinds.map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name={radioName}
              value={kind}
              checked={layout.kind === kind}
              onChange={() => setLayout(defaultCopyLayout(kind))}
            />
            {labels[kind]}
          </label>
        ))}
      </fieldset>
      <div className="ts-poi-copy__numbers">
        {layout.kind === 'default' || layout.kind === 'singleRow' || layout.kind === 'singleColumn'
          ? [
              count(t`Count`, 'count', layout.count),
              spacing(t`Spacing`, 'spacingMeters', layout.spacingMeters),
            ]
          : [
              count(t`Rows`, 'rows', layout.rows),
              count(t`Columns`, 'columns', layout.columns),
              ...(layout.kind === 'multiLayerArray'
                ? [count(t`Layers`, 'layers', layout.layers)]
                : []),
              spacing(t`Row spacing`, 'rowSpacingMeters', layout.rowSpacingMeters),
              spacing(t`Column spacing`, 'columnSpacingMeters', layout.columnSpacingMeters),
              ...(layout.kind === 'multiLayerArray'
                ? [spacing(t`Layer spacing`, 'layerSpacingMeters', layout.layerSpacingMeters)]
                : []),
            ]}
      </div>
    </>
  )
}

/**
 * The end of a copy dialog, shared by the POI copy and the model copy: whether custom properties
 * are copied too, then what the copy makes — or, when the layout makes none or too many, why not.
 */
export function CopyPropertiesAndTotal({
  isCopyProperties,
  setIsCopyProperties,
  problem,
  tooManyMessage,
  total,
}: {
  isCopyProperties: boolean
  setIsCopyProperties: (isCopyProperties: boolean) => void
  problem: 'tooMany' | 'range' | null
  tooManyMessage: ReactNode
  total: ReactNode
}) {
  return (
    <>
      <label className="ts-poi-copy__properties">
        <input
          type="checkbox"
          checked={isCopyProperties}
          onChange={(event) => setIsCopyProperties(event.target.checked)}
        />
        <Trans>Copy custom properties</Trans>
      </label>
      <p className="ts-poi-copy__total" aria-live="polite">
        {problem === null ? (
          total
        ) : (
          <span role="alert">
            {problem === 'tooMany' ? (
              tooManyMessage
            ) : (
              <Trans>This layout makes no copies; add a row, column or layer.</Trans>
            )}
          </span>
        )}
      </p>
    </>
  )
}
