import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useState } from 'react'
import type { DrawTypeNumber } from '../../../../engine/api'
import {
  type AreaDraw,
  type DrawKind,
  defaultDrawFill,
  defaultDrawOutline,
} from '../../../api/draw'
import { NameField } from '../../../components/forms/NameField'
import {
  ColorPicker,
  defaultRgba,
  FormWrapper,
  formatRgba,
  hexWithAlphaFromRgba,
  parseRgba,
  Select,
  TextArea,
} from '../../../ui'
import { isAreaType } from './draw-texts'

/** What the form gives: the drawing's text and how it is shown. */
export interface DrawingFormValues {
  name: string
  description: string
  style: Pick<AreaDraw['style'], 'fill_color' | 'outline_color' | 'display_mode'>
}

/** SPEC §9 path display modes, by number. */
const displayModeNames: ReadonlyArray<[mode: number, name: MessageDescriptor]> = [
  [0, msg`Hide all`],
  [1, msg`Node and path`],
  [2, msg`Node only`],
  [3, msg`Path only`],
]

/** A drawing's `#rrggbbaa` colour in the kit's colour picker (colour and opacity). */
function DrawColorField(props: {
  label: ReactNode
  value: string
  onChange: (hex: string) => void
}) {
  return (
    <ColorPicker
      label={props.label}
      value={formatRgba(parseRgba(props.value) ?? defaultRgba)}
      onChange={(rgba) => {
        const color = parseRgba(rgba)
        if (color) props.onChange(hexWithAlphaFromRgba(color))
      }}
    />
  )
}

/**
 * The area edit popup and the path edit dialog (SPEC §2, §4), new or modify: name, description
 * and how the drawing is shown — an area's fill and outline colour, a line's colour and its
 * display mode (SPEC §9), a point's colour, each colour with its opacity. Submitting is blocked
 * while the name is empty and until the previous submit is answered.
 */
export function DrawingForm({
  kind,
  type,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  kind: DrawKind
  type: DrawTypeNumber
  /** The saved drawing to modify; a new drawing starts empty with the default colours. */
  initial?: AreaDraw
  submitLabel: ReactNode
  onSubmit: (values: DrawingFormValues) => Promise<unknown>
  onCancel: () => void
}) {
  const { t, i18n } = useLingui()
  const [name, setName] = useState(initial?.name ?? '')
  const [description, setDescription] = useState(initial?.description ?? '')
  const [fill, setFill] = useState(initial?.style.fill_color ?? defaultDrawFill)
  const [outline, setOutline] = useState(initial?.style.outline_color ?? defaultDrawOutline)
  const [displayMode, setDisplayMode] = useState(initial?.style.display_mode ?? 1)
  const isLine = type === 3 || type === 5

  return (
    <FormWrapper
      label={initial ? t`Modify ${initial.name}` : t`New drawing`}
      submitLabel={submitLabel}
      isSubmitDisabled={name.trim() === ''}
      onCancel={onCancel}
      onSubmit={async () => {
        await onSubmit({
          name: name.trim(),
          description: description.trim(),
          style: { fill_color: fill, outline_color: outline, display_mode: displayMode },
        })
      }}
    >
      <NameField value={name} onValueChange={setName} />
      <TextArea
        label={<Trans>Description</Trans>}
        value={description}
        maxLength={500}
        rows={2}
        onValueChange={setDescription}
      />
      {isAreaType(type) ? (
        <>
          <DrawColorField label={<Trans>Fill colour</Trans>} value={fill} onChange={setFill} />
          <DrawColorField
            label={<Trans>Outline colour</Trans>}
            value={outline}
            onChange={setOutline}
          />
        </>
      ) : (
        <DrawColorField
          label={
            !isLine ? (
              <Trans>Point colour</Trans>
            ) : kind === 'path' ? (
              <Trans>Path colour</Trans>
            ) : (
              <Trans>Line colour</Trans>
            )
          }
          value={outline}
          onChange={setOutline}
        />
      )}
      {isLine && (
        <Select
          label={<Trans>Display mode</Trans>}
          options={displayModeNames.map(([mode, modeName]) => ({
            value: String(mode),
            label: i18n._(modeName),
          }))}
          value={String(displayMode)}
          onValueChange={(value) => setDisplayMode(Number(value))}
        />
      )}
    </FormWrapper>
  )
}
