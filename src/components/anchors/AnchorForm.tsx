import '../region-list/region-list.css'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button, TextField } from '../../ui'
import type { NewAnchor } from './use-saved-anchors'

/** The anchor form's fields as typed (text until they are read). */
export interface AnchorFormValues {
  name: string
  x: string
  y: string
  z: string
  lng: string
  lat: string
  offset: string
}

/** An empty form. */
export const emptyAnchorForm: AnchorFormValues = {
  name: '',
  x: '',
  y: '',
  z: '',
  lng: '',
  lat: '',
  offset: '',
}

/**
 * The anchor the form describes, or null while a required number is missing or out of range
 * (height and offset may stay empty: 0). An empty name becomes `#<position>`.
 */
export function anchorOfForm(form: AnchorFormValues, position: number): NewAnchor | null {
  const read = (text: string, fallback?: number) =>
    text.trim() === '' && fallback !== undefined ? fallback : Number.parseFloat(text)
  const anchor = {
    name: form.name.trim() || `#${position}`,
    x: read(form.x),
    y: read(form.y),
    z: read(form.z, 0),
    lng: read(form.lng),
    lat: read(form.lat),
    offset: read(form.offset, 0),
  }
  const numbers = [anchor.x, anchor.y, anchor.z, anchor.lng, anchor.lat, anchor.offset]
  if (!numbers.every(Number.isFinite)) return null
  if (Math.abs(anchor.lng) > 180 || Math.abs(anchor.lat) > 90) return null
  return anchor
}

/** Props of {@link AnchorForm}. */
export interface AnchorFormProps {
  form: AnchorFormValues
  onChange: (form: AnchorFormValues) => void
  /** Called with the anchor when the form is submitted complete. */
  onSubmit: (anchor: NewAnchor) => void
  /** How many anchors there are already (names an unnamed one). */
  count: number
  isBusy: boolean
  /** Whether the height and offset fields show (a building's anchors have them). */
  hasHeight?: boolean
  /** Buttons that fill fields: a pick in the model, the map centre, a pick on a map. */
  tools?: ReactNode
}

/**
 * The new anchor point form (SPEC §3 "Anchor point": name, relative coordinates, longitude,
 * latitude, offset). Its state lives with the screen, so picks in the scene or on a map fill it.
 */
export function AnchorForm({
  form,
  onChange,
  onSubmit,
  count,
  isBusy,
  hasHeight = false,
  tools,
}: AnchorFormProps) {
  const { t } = useLingui()
  const anchor = anchorOfForm(form, count + 1)
  const numberFields: Array<[keyof AnchorFormValues, ReactNode, boolean]> = [
    ['x', <Trans key="x">Model x (m)</Trans>, true],
    ['y', <Trans key="y">Model y (m)</Trans>, true],
    ...(hasHeight
      ? ([['z', <Trans key="z">Model height (m)</Trans>, false]] as Array<
          [keyof AnchorFormValues, ReactNode, boolean]
        >)
      : []),
    ['lng', <Trans key="lng">Longitude</Trans>, true],
    ['lat', <Trans key="lat">Latitude</Trans>, true],
    ...(hasHeight
      ? ([['offset', <Trans key="offset">Height offset (m)</Trans>, false]] as Array<
          [keyof AnchorFormValues, ReactNode, boolean]
        >)
      : []),
  ]
  return (
    <form
      className="ts-region__form"
      aria-label={t`New anchor point`}
      onSubmit={(event) => {
        event.preventDefault()
        if (anchor && !isBusy) onSubmit(anchor)
      }}
    >
      <TextField
        label={<Trans>Name</Trans>}
        value={form.name}
        maxLength={100}
        onChange={(event) => onChange({ ...form, name: event.target.value })}
      />
      {numberFields.map(([key, label, isRequired]) => (
        <TextField
          key={key}
          label={label}
          type="number"
          step="any"
          required={isRequired}
          value={form[key]}
          onChange={(event) => onChange({ ...form, [key]: event.target.value })}
        />
      ))}
      <div className="ts-region__actions">
        {tools}
        <Button type="submit" variant="primary" disabled={!anchor || isBusy}>
          <Trans>Add anchor point</Trans>
        </Button>
      </div>
    </form>
  )
}
