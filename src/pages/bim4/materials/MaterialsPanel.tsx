import { Trans, useLingui } from '@lingui/react/macro'
import { useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { materialMapFields, type MaterialMapField } from '../../../../contract/materials'
import {
  assignMaterial,
  deleteMaterial,
  type MaterialDatum,
  saveMaterial,
  uploadTexture,
} from '../../../api/materials'
import { showErrorToast } from '../../../components/feedback/error-text'
import { sceneStore } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState, TextField, toast } from '../../../ui'
import { materialStore } from './material-store'
import './materials.css'

interface Draft {
  name: string
  base_color: string
  metalness: number
  roughness: number
  emissive: string
  maps: Record<MaterialMapField, string>
}

/** The form's fields of a library material, to change it. */
const draftOf = (material: MaterialDatum): Draft => ({
  name: material.name,
  base_color: material.base_color.toLowerCase(),
  metalness: material.metalness,
  roughness: material.roughness,
  emissive: material.emissive.toLowerCase(),
  maps: {
    base_color_map: material.base_color_map,
    normal_map: material.normal_map,
    emissive_map: material.emissive_map,
    metal_rough_map: material.metal_rough_map,
  },
})

const emptyDraft = (): Draft => ({
  name: '',
  base_color: '#ffffff',
  metalness: 0,
  roughness: 1,
  emissive: '#000000',
  maps: { base_color_map: '', normal_map: '', emissive_map: '', metal_rough_map: '' },
})

/**
 * Model → materials (issue 21 item 4): the user's PBR material library (base colour, metalness,
 * roughness, emissive, and base colour, normal, emissive and metal-rough maps uploaded as
 * textures), and its assignment to the mesh picked in the scene. An assignment is drawn over
 * the model at once and kept on the server; the model file is never changed. The same form
 * changes an existing material; every mesh drawn with it shows the change at once.
 */
export function MaterialsPanel() {
  const { t } = useLingui()
  const store = useSnapshot(materialStore)
  const pick = useSnapshot(sceneStore).building.lastPick
  const [draft, setDraft] = useState<Draft>(emptyDraft)
  /** The material the form changes, or null while it makes a new one. */
  const [editingId, setEditingId] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const ids = { base: useId(), emissive: useId(), metal: useId(), rough: useId() }
  const projectId = store.projectId

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key)
    try {
      await action()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusy(null)
    }
  }

  const mapLabels: Record<MaterialMapField, string> = {
    base_color_map: t`Base colour map`,
    normal_map: t`Normal map`,
    emissive_map: t`Emissive map`,
    metal_rough_map: t`Metal-rough map`,
  }

  const upload = (field: MaterialMapField, file: File | undefined) => {
    if (!file) return
    void run(`map:${field}`, async () => {
      const uploaded = await uploadTexture(file)
      setDraft((current) => ({ ...current, maps: { ...current.maps, [field]: uploaded.fileName } }))
    })
  }

  const save = () =>
    run('save', async () => {
      const saved = await saveMaterial({
        ...(editingId === null ? {} : { id: editingId }),
        name: draft.name,
        base_color: draft.base_color,
        metalness: draft.metalness,
        roughness: draft.roughness,
        emissive: draft.emissive,
        ...draft.maps,
      })
      // a changed material replaces its row: the overrides follow the store, so meshes drawn
      // with it change at once
      materialStore.materials = [
        ...materialStore.materials.filter((row) => row.id !== saved.id),
        saved,
      ].sort((a, b) => a.name.localeCompare(b.name))
      setDraft(emptyDraft())
      setEditingId(null)
      toast.success(t`Material saved.`)
    })

  const edit = (material: MaterialDatum) => {
    setEditingId(material.id)
    setDraft(draftOf(material))
  }

  const cancelEdit = () => {
    setEditingId(null)
    setDraft(emptyDraft())
  }

  const remove = (material: MaterialDatum) =>
    run(`delete:${material.id}`, async () => {
      if (!(await confirmDelete({ itemName: material.name }))) return
      await deleteMaterial(material.id)
      if (editingId === material.id) cancelEdit()
      materialStore.materials = materialStore.materials.filter((row) => row.id !== material.id)
      materialStore.assignments = materialStore.assignments.filter(
        (row) => row.material_id !== material.id,
      )
    })

  const assign = (materialId: string, target: { modelId: string; meshName: string }) =>
    run(`assign:${materialId}`, async () => {
      if (!projectId) return
      materialStore.assignments = await assignMaterial({
        project_id: projectId,
        model_id: target.modelId,
        mesh_name: target.meshName,
        material_id: materialId,
      })
      const { meshName } = target
      if (materialId !== '') toast.success(t`Material assigned to ${meshName}.`)
    })

  const nameOf = (materialId: string) =>
    store.materials.find((material) => material.id === materialId)?.name ?? ''

  return (
    <div className="ts-materials" data-testid="materials-panel">
      <section aria-labelledby="materials-pick">
        <h2 id="materials-pick" className="ts-materials__heading">
          <Trans>Picked mesh</Trans>
        </h2>
        {pick ? (
          <p data-testid="materials-picked">{pick.meshName}</p>
        ) : (
          <p className="ts-materials__hint">
            <Trans>Click a part of the building to choose the mesh a material is drawn on.</Trans>
          </p>
        )}
      </section>

      <section aria-labelledby="materials-library">
        <h2 id="materials-library" className="ts-materials__heading">
          <Trans>Material library</Trans>
        </h2>
        {store.materials.length === 0 ? (
          <EmptyState title={<Trans>No materials yet.</Trans>} />
        ) : (
          <ul className="ts-materials__list">
            {store.materials.map((material) => (
              <li key={material.id} className="ts-materials__item">
                <span
                  className="ts-materials__swatch"
                  style={{ background: material.base_color }}
                  aria-hidden="true"
                />
                <span className="ts-materials__name">{material.name}</span>
                <Button
                  disabled={!pick || busy !== null}
                  onClick={() =>
                    pick && assign(material.id, { modelId: pick.modelId, meshName: pick.meshName })
                  }
                >
                  <Trans>Assign to picked mesh</Trans>
                </Button>
                <Button
                  variant="secondary"
                  disabled={busy !== null}
                  onClick={() => edit(material)}
                  aria-label={t`Edit ${material.name}`}
                >
                  <Trans>Edit</Trans>
                </Button>
                <Button
                  variant="danger"
                  disabled={busy !== null}
                  onClick={() => remove(material)}
                  aria-label={t`Delete ${material.name}`}
                >
                  <Trans>Delete</Trans>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="materials-assigned">
        <h2 id="materials-assigned" className="ts-materials__heading">
          <Trans>Assigned meshes</Trans>
        </h2>
        {store.assignments.length === 0 ? (
          <p className="ts-materials__hint">
            <Trans>No mesh has a library material.</Trans>
          </p>
        ) : (
          <ul className="ts-materials__list" data-testid="materials-assignments">
            {store.assignments.map((row) => (
              <li key={row.id} className="ts-materials__item">
                <span className="ts-materials__name">
                  {row.mesh_name} — {nameOf(row.material_id)}
                </span>
                <Button
                  variant="secondary"
                  disabled={busy !== null}
                  onClick={() => assign('', { modelId: row.model_id, meshName: row.mesh_name })}
                >
                  <Trans>Use the model's own</Trans>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section
        aria-labelledby="materials-new"
        className="ts-materials__form"
        data-testid="materials-form"
      >
        <h2 id="materials-new" className="ts-materials__heading">
          {editingId === null ? (
            <Trans>New material</Trans>
          ) : (
            <Trans>Edit material: {nameOf(editingId)}</Trans>
          )}
        </h2>
        <TextField
          label={<Trans>Name</Trans>}
          value={draft.name}
          maxLength={60}
          required
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
        <label htmlFor={ids.base}>
          <Trans>Base colour</Trans>
        </label>
        <input
          id={ids.base}
          type="color"
          value={draft.base_color}
          onChange={(event) => setDraft({ ...draft, base_color: event.target.value })}
        />
        <label htmlFor={ids.metal}>
          <Trans>Metalness</Trans> {draft.metalness.toFixed(2)}
        </label>
        <input
          id={ids.metal}
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={draft.metalness}
          onChange={(event) => setDraft({ ...draft, metalness: Number(event.target.value) })}
        />
        <label htmlFor={ids.rough}>
          <Trans>Roughness</Trans> {draft.roughness.toFixed(2)}
        </label>
        <input
          id={ids.rough}
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={draft.roughness}
          onChange={(event) => setDraft({ ...draft, roughness: Number(event.target.value) })}
        />
        <label htmlFor={ids.emissive}>
          <Trans>Emissive colour</Trans>
        </label>
        <input
          id={ids.emissive}
          type="color"
          value={draft.emissive}
          onChange={(event) => setDraft({ ...draft, emissive: event.target.value })}
        />
        {materialMapFields.map((field) => (
          <TextureField
            key={field}
            label={mapLabels[field]}
            fileName={draft.maps[field]}
            isBusy={busy === `map:${field}`}
            onFile={(file) => upload(field, file)}
            onClear={() => setDraft({ ...draft, maps: { ...draft.maps, [field]: '' } })}
          />
        ))}
        <div className="ts-materials__actions">
          <Button
            variant="primary"
            disabled={draft.name.trim() === '' || busy !== null}
            onClick={save}
          >
            {editingId === null ? <Trans>Add material</Trans> : <Trans>Save changes</Trans>}
          </Button>
          {editingId !== null && (
            <Button variant="secondary" disabled={busy !== null} onClick={cancelEdit}>
              <Trans>Cancel</Trans>
            </Button>
          )}
        </div>
      </section>
    </div>
  )
}

/** One texture map: the console's own file button (ko/zh/en), the uploaded name, and clear. */
function TextureField({
  label,
  fileName,
  isBusy,
  onFile,
  onClear,
}: {
  label: string
  fileName: string
  isBusy: boolean
  onFile: (file: File | undefined) => void
  onClear: () => void
}) {
  const inputId = useId()
  return (
    <div className="ts-materials__map">
      <span>{label}</span>
      <label htmlFor={inputId} className="ts-materials__file-button">
        {isBusy ? <Trans>Uploading…</Trans> : <Trans>Choose image</Trans>}
      </label>
      <input
        id={inputId}
        type="file"
        accept="image/png,image/jpeg"
        className="ts-visually-hidden"
        aria-label={label}
        onChange={(event) => {
          onFile(event.target.files?.[0])
          event.target.value = ''
        }}
      />
      {fileName !== '' && (
        <>
          <img src={`/web/files/${fileName}`} alt="" className="ts-materials__thumb" />
          <Button variant="secondary" onClick={onClear}>
            <Trans>Remove</Trans>
          </Button>
        </>
      )}
    </div>
  )
}
