import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { GisModel } from '../../../api/city'
import { linkPoisToModel, type ModelPoiItem, selectPoisByModel } from '../../../api/pois'
import { showErrorToast } from '../../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { poiStore } from '../../../state/pois'
import { Button, EmptyState, toast } from '../../../ui'
import { showMonomerModel } from '../city-actions'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { useCityServices } from '../city-services'
import { AttachedPoiSection } from './AttachedPoiList'
import './city-pois.css'

/**
 * "Monomer POI" (SPEC §2 city POI tabs): the POIs attached to a building of the oblique
 * photography saved as a monomer model. Choosing a model selects and shows its building and
 * lists its POIs; the POI selected on the map can be attached to it (`addPoi`).
 */
export function CityMonomerPoiTab() {
  const { t } = useLingui()
  const engine = useEngine()
  const store = useCityProjectStore()
  const services = useCityServices()
  const canEdit = useCanEditCityProject()
  const { gisModels } = useSnapshot(store)
  const { selectedIds } = useSnapshot(poiStore.state)
  const [modelId, setModelId] = useState<string | null>(null)
  const [items, setItems] = useState<ModelPoiItem[] | null>(null)
  const [reloadCount, setReloadCount] = useState(0)
  const { selectedFeature } = useSnapshot(sceneStore).city

  // A building clicked on the map: its saved monomer model, when it has one, is chosen.
  useEffect(() => {
    if (!selectedFeature) return
    const saved = store.gisModels.find(
      (item) =>
        item.tileset_id === selectedFeature.tilesetId &&
        item.feature_ids.some((id) => Number(id) === selectedFeature.featureId),
    )
    if (saved) setModelId(saved.id)
  }, [selectedFeature, store])

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadCount re-reads the list on purpose
  useEffect(() => {
    if (!modelId) return
    let isCurrent = true
    setItems(null)
    selectPoisByModel(modelId)
      .then((list) => {
        if (isCurrent) setItems(list)
      })
      .catch((error: unknown) => {
        if (!isCurrent) return
        setItems([])
        showErrorToast(error)
      })
    return () => {
      isCurrent = false
    }
  }, [modelId, reloadCount])

  const model = store.gisModels.find((item) => item.id === modelId) ?? null
  const selectedPoi = selectedIds[0] ? poiStore.get(selectedIds[0]) : undefined

  async function attachSelected(target: GisModel) {
    if (!selectedPoi) return
    try {
      await linkPoisToModel(target.id, [selectedPoi.id])
      toast.success(t`“${selectedPoi.name}” is attached to ${target.modelname}.`)
      setReloadCount((count) => count + 1)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <div className="ts-city-tab" data-testid="city-monomer-poi">
      <p className="ts-city-tab__hint">
        <Trans>
          Click a building of the oblique photography, or choose its monomer model, to see the POIs
          attached to it.
        </Trans>
      </p>
      {gisModels.length === 0 ? (
        <EmptyState
          title={<Trans>No monomer models yet</Trans>}
          description={<Trans>Save a building as a monomer model in Model › Monomer first.</Trans>}
        />
      ) : (
        <ul className="ts-city-pois__list" aria-label={t`Monomer models`}>
          {gisModels.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="ts-city-pois__item"
                aria-current={item.id === modelId}
                onClick={() => {
                  setModelId(item.id)
                  void showMonomerModel({ store, services, engine }, item)
                }}
              >
                {item.modelname}
              </button>
            </li>
          ))}
        </ul>
      )}
      {model && (
        <AttachedPoiSection
          modelname={model.modelname}
          items={items}
          emptyText={<Trans>No POI is attached to this building.</Trans>}
          testId="city-monomer-poi-list"
          pois={poiStore}
        >
          {canEdit && (
            <div className="ts-city-details__actions">
              <Button
                variant="primary"
                disabled={!selectedPoi}
                onClick={() => void attachSelected(model)}
              >
                {selectedPoi ? (
                  <Trans>Attach “{selectedPoi.name}”</Trans>
                ) : (
                  <Trans>Select a POI on the map to attach it</Trans>
                )}
              </Button>
            </div>
          )}
        </AttachedPoiSection>
      )}
    </div>
  )
}
