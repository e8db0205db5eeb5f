import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { GmlPlacement } from '../../../../engine/api'
import { updateGmlPlacement } from '../../../api/gml'
import { showErrorToast } from '../../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, NumberInput, toast } from '../../../ui'

/** Offsets reach across a projected coordinate system (UTM eastings are ~500 000 m). */
const offsetLimitMeters = 1e7

/**
 * Aligns the GML network with the building: offset (scene metres, y up), rotation about the
 * vertical axis and scale. Each change is applied to the engine at once, so the user sees the
 * network move; "Save" stores it (with the display mode) for the next visit.
 */
export function PlacementEditor({ projectId }: { projectId: string }) {
  const { t } = useLingui()
  const engine = useEngine()
  const { building } = useSnapshot(sceneStore)
  const applied = building.gml.placement
  const [draft, setDraft] = useState<GmlPlacement>(() => copyOf(applied))
  const [isSaving, setSaving] = useState(false)
  useEffect(() => setDraft(copyOf(applied)), [applied])

  function apply(next: GmlPlacement) {
    setDraft(next)
    void engine.run('gml.setPlacement', next).catch(() => undefined)
  }

  function setOffset(axis: 0 | 1 | 2, value: number) {
    const offset: [number, number, number] = [...draft.offset]
    offset[axis] = value
    apply({ ...draft, offset })
  }

  async function save() {
    setSaving(true)
    try {
      await updateGmlPlacement({
        project_id: projectId,
        placement: {
          offset: [...draft.offset],
          rotation_deg: draft.rotationDeg,
          scale: draft.scale,
        },
        display_mode: building.gml.displayMode,
      })
      toast.success(t`Saved.`)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setSaving(false)
    }
  }

  const axisLabels = [t`Offset X`, t`Offset Y (up)`, t`Offset Z`] as const
  return (
    <fieldset className="ts-bim4-fieldset ts-bim4-placement">
      <legend>
        <Trans>Placement</Trans>
      </legend>
      {([0, 1, 2] as const).map((axis) => (
        <NumberInput
          key={axis}
          label={axisLabels[axis]}
          value={draft.offset[axis]}
          min={-offsetLimitMeters}
          max={offsetLimitMeters}
          step={0.1}
          precision={2}
          unit="m"
          onChange={(value) => setOffset(axis, value)}
        />
      ))}
      <NumberInput
        label={<Trans>Rotation</Trans>}
        value={draft.rotationDeg}
        min={-360}
        max={360}
        step={1}
        precision={2}
        unit="°"
        onChange={(value) => apply({ ...draft, rotationDeg: value })}
      />
      <NumberInput
        label={<Trans>Scale</Trans>}
        value={draft.scale}
        min={0.001}
        max={1000}
        step={0.01}
        precision={3}
        onChange={(value) => apply({ ...draft, scale: value })}
      />
      <Button onClick={() => void save()} isBusy={isSaving}>
        <Trans>Save placement</Trans>
      </Button>
    </fieldset>
  )
}

function copyOf(placement: {
  readonly offset: readonly [number, number, number]
  readonly rotationDeg: number
  readonly scale: number
}): GmlPlacement {
  return {
    offset: [placement.offset[0], placement.offset[1], placement.offset[2]],
    rotationDeg: placement.rotationDeg,
    scale: placement.scale,
  }
}
