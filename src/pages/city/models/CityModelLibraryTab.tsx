import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import * as cityModelsApi from '../../../api/city-models'
import type { CityModel } from '../../../api/city-models'
import { reasonText } from '../../../components/feedback/error-text'
import { sceneStore } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState, FileChoiceFace, TextField, toast } from '../../../ui'
import { useCanEditCityProject } from '../city-context'
import { cityModelsState, keepCityModel, saveCityModel } from './city-models-store'
import './city-models.css'

/** What the file input takes: a model, and a .gltf's buffers and images. */
const acceptedFiles = '.glb,.gltf,.sbm,.bin,.png,.jpg,.jpeg,.webp'

/**
 * The city's model library tab (SPEC §2 city sub-tab "model library", §3 "Model library item:
 * model_name, preview_path, operation, modelLoadState"; issue 21 item 6): upload glTF/GLB/SBM
 * models (placed at the map's centre), place one by clicking the map, turn and scale it, and
 * delete it. Each item shows the engine's load state.
 */
export function CityModelLibraryTab() {
  const { t } = useLingui()
  const canEdit = useCanEditCityProject()
  const { projectId, models, placingId, selectedId } = useSnapshot(cityModelsState)
  const city = useSnapshot(sceneStore).city
  const [isUploading, setIsUploading] = useState(false)
  const selected = models.find((model) => model.id === selectedId) ?? null

  // Leaving the tab ends a placement: a later map click means something else there.
  useEffect(
    () => () => {
      cityModelsState.placingId = null
    },
    [],
  )

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (!projectId || files.length === 0) return
    setIsUploading(true)
    try {
      const model = await cityModelsApi.uploadCityModel(projectId, files, city.camera)
      keepCityModel(model)
      cityModelsState.selectedId = model.id
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
      await cityModelsApi.deleteCityModel(model.id)
      cityModelsState.models = cityModelsState.models.filter((item) => item.id !== model.id)
      if (cityModelsState.selectedId === model.id) cityModelsState.selectedId = null
    } catch (error) {
      toast.error(reasonText(error))
    }
  }

  return (
    <div className="ts-city-models" data-testid="city-model-library">
      {canEdit && (
        <label className="ts-city-models__upload">
          <span>{isUploading ? <Trans>Uploading…</Trans> : <Trans>Upload a model</Trans>}</span>
          <input
            type="file"
            className="ts-visually-hidden"
            multiple
            accept={acceptedFiles}
            disabled={isUploading}
            data-testid="city-model-upload-input"
            aria-label={t`Upload a model (.glb, .sbm, or .gltf with its .bin and images)`}
            onChange={(event) => void upload(event)}
          />
          <FileChoiceFace isMultiple />
        </label>
      )}
      {models.length === 0 ? (
        <EmptyState
          title={<Trans>No models yet</Trans>}
          description={<Trans>Upload a glTF, GLB or SBM model to place it on the map.</Trans>}
        />
      ) : (
        <ul className="ts-city-models__list" aria-label={t`Model library`}>
          {models.map((model) => {
            const state = city.libraryModels.find((item) => item.id === model.id)
            const loadState = state?.loadState ?? 'loading'
            return (
              <li
                key={model.id}
                className="ts-city-models__item"
                aria-current={model.id === selectedId ? 'true' : undefined}
              >
                <button
                  type="button"
                  className="ts-city-models__name"
                  onClick={() => {
                    cityModelsState.selectedId = model.id
                  }}
                >
                  {model.model_name}
                </button>
                <span className="ts-city-models__state" data-state={loadState}>
                  {loadState === 'success' ? (
                    <Trans>Loaded</Trans>
                  ) : loadState === 'error' ? (
                    <Trans>Failed to load</Trans>
                  ) : (
                    <Trans>Loading</Trans>
                  )}
                </span>
                {canEdit && (
                  <span className="ts-city-models__actions">
                    <Button
                      variant={placingId === model.id ? 'primary' : 'secondary'}
                      aria-pressed={placingId === model.id}
                      onClick={() => {
                        cityModelsState.selectedId = model.id
                        cityModelsState.placingId = placingId === model.id ? null : model.id
                      }}
                    >
                      <Trans>Place on the map</Trans>
                    </Button>
                    <Button
                      variant="danger"
                      aria-label={t`Delete ${model.model_name}`}
                      onClick={() => void remove(model)}
                    >
                      <Trans>Delete</Trans>
                    </Button>
                  </span>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {placingId && (
        <p className="ts-city-models__hint" role="status">
          <Trans>Click the map where the model should stand.</Trans>
        </p>
      )}
      {selected && canEdit && (
        <PlacementForm key={selected.id + selected.updated_at} model={selected} />
      )}
    </div>
  )
}

/** Heading, scale and height of the selected model, saved together. */
function PlacementForm({ model }: { model: CityModel }) {
  const { t } = useLingui()
  const [heading, setHeading] = useState(String(model.heading))
  const [scale, setScale] = useState(String(model.scale))
  const [height, setHeight] = useState(String(model.height))
  const [isSaving, setIsSaving] = useState(false)
  const headingValue = Number.parseFloat(heading)
  const scaleValue = Number.parseFloat(scale)
  const heightValue = Number.parseFloat(height)
  const headingError =
    Number.isFinite(headingValue) && Math.abs(headingValue) <= 360
      ? null
      : t`A heading from -360 to 360 degrees`
  const scaleError =
    Number.isFinite(scaleValue) && scaleValue >= 0.001 && scaleValue <= 10_000
      ? null
      : t`A scale from 0.001 to 10000`
  const heightError =
    Number.isFinite(heightValue) && heightValue >= -10_000 && heightValue <= 100_000
      ? null
      : t`A height from -10000 to 100000 metres`

  async function save() {
    setIsSaving(true)
    try {
      await saveCityModel({
        id: model.id,
        heading: headingValue,
        scale: scaleValue,
        height: heightValue,
      })
      toast.success(t`Saved.`)
    } catch (error) {
      toast.error(reasonText(error))
    } finally {
      setIsSaving(false)
    }
  }

  return (
    <form
      className="ts-city-models__form"
      aria-label={t`Placement of ${model.model_name}`}
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <p className="ts-city-models__place">
        <Trans>
          Longitude {model.lng.toFixed(6)}°, latitude {model.lat.toFixed(6)}°
        </Trans>
      </p>
      <TextField
        label={t`Heading (degrees)`}
        type="number"
        inputMode="decimal"
        value={heading}
        error={headingError}
        onChange={(event) => setHeading(event.target.value)}
      />
      <TextField
        label={t`Scale`}
        type="number"
        inputMode="decimal"
        value={scale}
        error={scaleError}
        onChange={(event) => setScale(event.target.value)}
      />
      <TextField
        label={t`Height (metres)`}
        type="number"
        inputMode="decimal"
        value={height}
        error={heightError}
        onChange={(event) => setHeight(event.target.value)}
      />
      <Button
        type="submit"
        variant="primary"
        disabled={isSaving || headingError !== null || scaleError !== null || heightError !== null}
      >
        <Trans>Save</Trans>
      </Button>
    </form>
  )
}
