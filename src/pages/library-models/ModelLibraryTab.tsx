import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import * as libraryModelsApi from '../../api/city-models'
import type { CityModel } from '../../api/city-models'
import { reasonText } from '../../components/feedback/error-text'
import { sceneStore } from '../../engine-bridge'
import { Button, confirmDelete, EmptyState, FileChoiceFace, TextField, toast } from '../../ui'
import {
  type LibraryScene,
  keepLibraryModel,
  libraryModelsState,
  placeFieldsOf,
  saveLibraryModel,
  scenePositionOf,
} from './library-models-store'
import './library-models.css'

/** What the file input takes: a model, and a .gltf's buffers and images. */
const acceptedFiles = '.glb,.gltf,.sbm,.bin,.png,.jpg,.jpeg,.webp'

/** Props of {@link ModelLibraryTab} and {@link ModelAnimationTab}. */
export interface LibraryTabProps {
  scene: LibraryScene
  /** The caller may change the project: upload, place, save and delete show. */
  canEdit: boolean
}

/**
 * The model library tab of both editors (SPEC §2 city sub-tab "model library", §3 "Model
 * library item: model_name, preview_path, operation, modelLoadState"; issue 21): upload
 * glTF/GLB/SBM models (placed where the camera looks), place one by a click on the map or in the
 * building, turn, scale and lift it, and delete it. Each item shows the engine's load state.
 */
export function ModelLibraryTab({ scene, canEdit }: LibraryTabProps) {
  const { t } = useLingui()
  const { projectId, models, placingId, selectedId } = useSnapshot(libraryModelsState)
  const shown = useSnapshot(sceneStore)
  const [isUploading, setIsUploading] = useState(false)
  const selected = models.find((model) => model.id === selectedId) ?? null

  // Leaving the tab ends a placement: a later click in the scene means something else there.
  useEffect(
    () => () => {
      libraryModelsState.placingId = null
    },
    [],
  )

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (!projectId || files.length === 0) return
    // where the camera looks, until the model is placed by a click
    const place =
      scene === 'city'
        ? { lng: shown.city.camera.lng, lat: shown.city.camera.lat }
        : placeFieldsOf(scene, shown.building.camera.target)
    setIsUploading(true)
    try {
      const model = await libraryModelsApi.uploadCityModel(projectId, files, place)
      keepLibraryModel(model)
      libraryModelsState.selectedId = model.id
      toast.success(t`“${model.model_name}” was added to the model library.`)
    } catch (error) {
      toast.error(reasonText(error))
    } finally {
      setIsUploading(false)
    }
  }

  async function remove(model: CityModel) {
    if (!(await confirmDelete({ itemName: model.model_name }))) return
    try {
      await libraryModelsApi.deleteCityModel(model.id)
      libraryModelsState.models = libraryModelsState.models.filter((item) => item.id !== model.id)
      if (libraryModelsState.selectedId === model.id) libraryModelsState.selectedId = null
    } catch (error) {
      toast.error(reasonText(error))
    }
  }

  return (
    <div className="ts-library-models" data-testid={`${scene}-model-library`}>
      {canEdit && (
        <label className="ts-library-models__upload">
          <span>{isUploading ? <Trans>Uploading…</Trans> : <Trans>Upload a model</Trans>}</span>
          <input
            type="file"
            className="ts-visually-hidden"
            multiple
            accept={acceptedFiles}
            disabled={isUploading}
            data-testid={`${scene}-model-upload-input`}
            aria-label={t`Upload a model (.glb, .sbm, or .gltf with its .bin and images)`}
            onChange={(event) => void upload(event)}
          />
          <FileChoiceFace isMultiple />
        </label>
      )}
      {models.length === 0 ? (
        <EmptyState
          title={<Trans>No models yet</Trans>}
          description={
            scene === 'city' ? (
              <Trans>Upload a glTF, GLB or SBM model to place it on the map.</Trans>
            ) : (
              <Trans>Upload a glTF, GLB or SBM model to place it in the building.</Trans>
            )
          }
        />
      ) : (
        <ul className="ts-plain-list ts-library-models__list" aria-label={t`Model library`}>
          {models.map((model) => (
            <LibraryItem
              key={model.id}
              model={model}
              scene={scene}
              canEdit={canEdit}
              isSelected={model.id === selectedId}
              isPlacing={model.id === placingId}
              onDelete={() => void remove(model)}
            />
          ))}
        </ul>
      )}
      {placingId && (
        <p className="ts-library-models__hint" role="status">
          {scene === 'city' ? (
            <Trans>Click the map where the model should stand.</Trans>
          ) : (
            <Trans>Click the building where the model should stand.</Trans>
          )}
        </p>
      )}
      {selected && canEdit && (
        <PlacementForm key={selected.id + selected.updated_at} model={selected} scene={scene} />
      )}
    </div>
  )
}

/** One model of the list: its name (selects it), load state, and place and delete actions. */
function LibraryItem({
  model,
  scene,
  canEdit,
  isSelected,
  isPlacing,
  onDelete,
}: {
  model: CityModel
  scene: LibraryScene
  canEdit: boolean
  isSelected: boolean
  isPlacing: boolean
  onDelete: () => void
}) {
  const { t } = useLingui()
  const shown = useSnapshot(sceneStore)[scene]
  const loadState = shown.libraryModels.find((item) => item.id === model.id)?.loadState ?? 'loading'
  return (
    <li
      className="ts-list-row ts-library-models__item"
      aria-current={isSelected ? 'true' : undefined}
    >
      <button
        type="button"
        className="ts-library-models__name"
        onClick={() => {
          libraryModelsState.selectedId = model.id
        }}
      >
        {model.model_name}
      </button>
      <span className="ts-library-models__state" data-state={loadState}>
        {loadState === 'success' ? (
          <Trans>Loaded</Trans>
        ) : loadState === 'error' ? (
          <Trans>Failed to load</Trans>
        ) : (
          <Trans>Loading</Trans>
        )}
      </span>
      {canEdit && (
        <span className="ts-library-models__actions">
          <Button
            variant={isPlacing ? 'primary' : 'secondary'}
            aria-pressed={isPlacing}
            onClick={() => {
              libraryModelsState.selectedId = model.id
              libraryModelsState.placingId = isPlacing ? null : model.id
            }}
          >
            {scene === 'city' ? (
              <Trans>Place on the map</Trans>
            ) : (
              <Trans>Place in the building</Trans>
            )}
          </Button>
          <Button variant="danger" aria-label={t`Delete ${model.model_name}`} onClick={onDelete}>
            <Trans>Delete</Trans>
          </Button>
        </span>
      )}
    </li>
  )
}

/** The numbers of the placement form: what each is saved as, its range and its label. */
type PlacementKey = 'heading' | 'scale' | 'height' | 'y'

/** Heading, scale and height of the selected model, saved together. */
function PlacementForm({ model, scene }: { model: CityModel; scene: LibraryScene }) {
  const { t } = useLingui()
  const fields: ReadonlyArray<{
    key: PlacementKey
    label: string
    min: number
    max: number
    problem: string
  }> = [
    {
      key: 'heading',
      label: t`Heading (degrees)`,
      min: -360,
      max: 360,
      problem: t`A heading from -360 to 360 degrees`,
    },
    {
      key: 'scale',
      label: t`Scale`,
      min: 0.001,
      max: 10_000,
      problem: t`A scale from 0.001 to 10000`,
    },
    {
      // a building's height is its scene's y (up)
      key: scene === 'city' ? 'height' : 'y',
      label: t`Height (metres)`,
      min: -10_000,
      max: 100_000,
      problem: t`A height from -10000 to 100000 metres`,
    },
  ]
  const [texts, setTexts] = useState(
    () => new Map(fields.map((field) => [field.key, String(model[field.key])])),
  )
  const [isSaving, setIsSaving] = useState(false)
  const checked = fields.map((field) => {
    const value = Number.parseFloat(texts.get(field.key) ?? '')
    const isValid = Number.isFinite(value) && value >= field.min && value <= field.max
    return { ...field, value, error: isValid ? null : field.problem }
  })
  const hasError = checked.some((field) => field.error !== null)
  const [first, second, third] = scenePositionOf(model, scene)

  async function save() {
    setIsSaving(true)
    try {
      const changes: Partial<Record<PlacementKey, number>> = {}
      for (const field of checked) changes[field.key] = field.value
      await saveLibraryModel({ id: model.id, ...changes })
      toast.success(t`Saved.`)
    } catch (error) {
      toast.error(reasonText(error))
    } finally {
      setIsSaving(false)
    }
  }

  const x = first.toFixed(2)
  const z = third.toFixed(2)
  return (
    <form
      className="ts-library-models__form"
      aria-label={t`Placement of ${model.model_name}`}
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <p className="ts-library-models__place">
        {scene === 'city' ? (
          <Trans>
            Longitude {first.toFixed(6)}°, latitude {second.toFixed(6)}°
          </Trans>
        ) : (
          <Trans>
            Position x {x} m, z {z} m
          </Trans>
        )}
      </p>
      {checked.map((field) => (
        <TextField
          key={field.key}
          label={field.label}
          type="number"
          inputMode="decimal"
          value={texts.get(field.key) ?? ''}
          error={field.error}
          onChange={(event) => {
            const text = event.target.value
            setTexts((current) => new Map(current).set(field.key, text))
          }}
        />
      ))}
      <Button type="submit" variant="primary" disabled={isSaving || hasError}>
        <Trans>Save</Trans>
      </Button>
    </form>
  )
}
