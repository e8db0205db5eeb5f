import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { BuildingModel, BuildingModelRole } from '../../../../contract/building'
import { updateBimModel, updateModelInfo } from '../../../api/building'
import { SavingFormDialog } from '../../../components/forms/SavingFormDialog'
import { Select, TextField } from '../../../ui'

/** The choice that takes a model off every floor. */
const noFloor = 'none'

/** Where a model stands, as the placement fields show it (text while typed). */
type PlacementFields = Record<'x' | 'y' | 'z' | 'turn' | 'scale', string>

function placementFieldsOf(placement: BuildingModel['placement'] | undefined): PlacementFields {
  const [x = 0, y = 0, z = 0] = placement?.position ?? []
  return {
    x: String(x),
    y: String(y),
    z: String(z),
    turn: String(placement?.rotationDegrees[1] ?? 0),
    scale: String(placement?.scale[0] ?? 1),
  }
}

/**
 * The model form (SPEC §2 "Model form", `updateBimModel`): a model's name, its role in the
 * building (shell, floor or free-standing model) and the floor it belongs to; and where it
 * stands (`updatemodelinfo`): position in scene metres, turn about the up axis, uniform scale.
 */
export function ModelFormDialog({
  model,
  floors,
  onClose,
  onSaved,
  save = updateBimModel,
  savePlacement = updateModelInfo,
}: {
  model: Pick<BuildingModel, 'id' | 'name' | 'role' | 'floor_id'> &
    Partial<Pick<BuildingModel, 'placement'>>
  floors: ReadonlyArray<{ id: string; name: string }>
  onClose: () => void
  onSaved: (model: BuildingModel) => void
  save?: typeof updateBimModel
  savePlacement?: typeof updateModelInfo
}) {
  const { t } = useLingui()
  const [name, setName] = useState(model.name)
  const [role, setRole] = useState<BuildingModelRole>(model.role)
  const [floorId, setFloorId] = useState(model.floor_id ?? noFloor)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const nameError = hasTriedSubmit && name.trim() === '' ? t`Please enter a name.` : undefined
  const [initialPlacement] = useState(() => placementFieldsOf(model.placement))
  const [placement, setPlacement] = useState(initialPlacement)
  const numbers = {
    x: Number.parseFloat(placement.x),
    y: Number.parseFloat(placement.y),
    z: Number.parseFloat(placement.z),
    turn: Number.parseFloat(placement.turn),
    scale: Number.parseFloat(placement.scale),
  }
  const placementError = (field: keyof PlacementFields) => {
    if (!hasTriedSubmit) return undefined
    const value = numbers[field]
    if (field === 'scale') return value > 0 && value <= 1e6 ? undefined : t`A scale above 0`
    if (field === 'turn') return Math.abs(value) <= 360 ? undefined : t`From -360 to 360 degrees`
    return Number.isFinite(value) ? undefined : t`Please enter a number.`
  }
  const modelName = model.name

  /** Saves name, role and floor, then the placement if it changed; undefined if refused here. */
  async function saveModel(): Promise<BuildingModel | undefined> {
    setHasTriedSubmit(true)
    const isNumber = (['x', 'y', 'z', 'turn'] as const).every((field) =>
      Number.isFinite(numbers[field]),
    )
    const isPlaced =
      isNumber && Math.abs(numbers.turn) <= 360 && numbers.scale > 0 && numbers.scale <= 1e6
    if (name.trim() === '' || !isPlaced) return undefined
    const saved = await save({
      id: model.id,
      name: name.trim(),
      role,
      floor_id: floorId === noFloor ? null : floorId,
    })
    const isMoved = (Object.keys(placement) as (keyof PlacementFields)[]).some(
      (field) => placement[field] !== initialPlacement[field],
    )
    if (!isMoved) return saved
    const [turnX = 0, , turnZ = 0] = model.placement?.rotationDegrees ?? []
    return savePlacement({
      id: model.id,
      position: [numbers.x, numbers.y, numbers.z],
      rotationDegrees: [turnX, numbers.turn, turnZ],
      scale: [numbers.scale, numbers.scale, numbers.scale],
    })
  }

  return (
    <SavingFormDialog
      title={<Trans>Edit the model {modelName}</Trans>}
      submitLabel={<Trans>Modify</Trans>}
      successMessage={t`Modified successfully.`}
      save={saveModel}
      onSaved={onSaved}
      onClose={onClose}
    >
      <TextField
        label={t`Name`}
        value={name}
        maxLength={100}
        error={nameError}
        required
        onChange={(event) => setName(event.target.value)}
      />
      <Select<BuildingModelRole>
        label={t`Role in the building`}
        value={role}
        onValueChange={setRole}
        options={[
          { value: 'shell', label: t`Shell` },
          { value: 'floor', label: t`Floor` },
          { value: 'model', label: t`Model` },
        ]}
      />
      <Select
        label={t`Floor`}
        value={floorId}
        onValueChange={setFloorId}
        options={[
          { value: noFloor, label: t`No floor` },
          ...floors.map((floor) => ({ value: floor.id, label: floor.name })),
        ]}
      />
      <fieldset className="ts-model-form__placement">
        <legend>
          <Trans>Placement</Trans>
        </legend>
        {(
          [
            ['x', t`X (m)`],
            ['y', t`Y, up (m)`],
            ['z', t`Z (m)`],
            ['turn', t`Turn (degrees)`],
            ['scale', t`Scale`],
          ] as const
        ).map(([field, label]) => (
          <TextField
            key={field}
            label={label}
            type="number"
            inputMode="decimal"
            value={placement[field]}
            error={placementError(field)}
            onChange={(event) =>
              setPlacement((current) => ({ ...current, [field]: event.target.value }))
            }
          />
        ))}
      </fieldset>
    </SavingFormDialog>
  )
}
