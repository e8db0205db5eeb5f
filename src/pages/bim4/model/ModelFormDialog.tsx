import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { BuildingModel, BuildingModelRole } from '../../../../contract/building'
import { updateBimModel } from '../../../api/building'
import { showErrorToast } from '../../../components/feedback/error-text'
import { FormDialog, Select, TextField, toast } from '../../../ui'

/** The choice that takes a model off every floor. */
const noFloor = 'none'

/**
 * The model form (SPEC §2 "Model form", `updateBimModel`): a model's name, its role in the
 * building (shell, floor or free-standing model) and the floor it belongs to.
 */
export function ModelFormDialog({
  model,
  floors,
  onClose,
  onSaved,
  save = updateBimModel,
}: {
  model: Pick<BuildingModel, 'id' | 'name' | 'role' | 'floor_id'>
  floors: ReadonlyArray<{ id: string; name: string }>
  onClose: () => void
  onSaved: (model: BuildingModel) => void
  save?: typeof updateBimModel
}) {
  const { t } = useLingui()
  const [name, setName] = useState(model.name)
  const [role, setRole] = useState<BuildingModelRole>(model.role)
  const [floorId, setFloorId] = useState(model.floor_id ?? noFloor)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const nameError = hasTriedSubmit && name.trim() === '' ? t`Please enter a name.` : undefined
  const modelName = model.name

  async function submit() {
    setHasTriedSubmit(true)
    if (name.trim() === '') return
    try {
      const saved = await save({
        id: model.id,
        name: name.trim(),
        role,
        floor_id: floorId === noFloor ? null : floorId,
      })
      toast.success(t`Modified successfully.`)
      onSaved(saved)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={<Trans>Edit the model {modelName}</Trans>}
      onSubmit={submit}
      submitLabel={<Trans>Modify</Trans>}
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
    </FormDialog>
  )
}
