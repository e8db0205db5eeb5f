import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { GisModel } from '../../../api/city'
import type { ModelPoiItem, PoiModel } from '../../../api/pois'
import { showErrorToast } from '../../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { type PoiStore, poiStore } from '../../../state/pois'
import { Button, confirm, EmptyState, TextField, toast } from '../../../ui'
import { showMonomerModel } from '../city-actions'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { useCityServices } from '../city-services'
import { AttachedPoiSection } from '../pois/AttachedPoiList'
import { ModelCopyDialog } from './ModelCopyDialog'
import { type ModelPoiServices, serverModelPoiServices } from './model-poi-services'
import './model-poi.css'

/** Props of {@link ModelPoiTab}. */
export interface ModelPoiTabProps {
  services?: ModelPoiServices
  store?: PoiStore
}

/** Most POIs the add list offers at once (a project may hold 100,000: search narrows it). */
const addListSize = 20

/**
 * The model-POI page (SPEC §2 "/home/model/poi", "Model-POI items show an icon, a template name,
 * a name and a delete action"): the project's models (saved single buildings) and the POIs
 * attached to the chosen one (`selectPoisBymodel`). A model is chosen in the list or by clicking
 * its building on the map; a POI clicked on the map shows the models it is attached to
 * (`findModelByPoi`). An editor attaches POIs of the project to the model (`addPoi`), detaches
 * one (its other links and the POI stay), and copies the model with its POIs (model copy).
 */
export function ModelPoiTab({
  services = serverModelPoiServices,
  store = poiStore,
}: ModelPoiTabProps) {
  const { t } = useLingui()
  const engine = useEngine()
  const cityStore = useCityProjectStore()
  const cityServices = useCityServices()
  const canEdit = useCanEditCityProject()
  const { gisModels } = useSnapshot(cityStore)
  const { selectedIds, revision } = useSnapshot(store.state)
  const { selectedFeature } = useSnapshot(sceneStore).city
  const [modelId, setModelId] = useState<string | null>(null)
  const [items, setItems] = useState<ModelPoiItem[] | null>(null)
  const [reloadCount, setReloadCount] = useState(0)
  const [keyword, setKeyword] = useState('')
  const [copying, setCopying] = useState<GisModel | null>(null)
  const [selectedModels, setSelectedModels] = useState<PoiModel[] | null>(null)

  // A building clicked on the map: its saved model, when it has one, is chosen.
  useEffect(() => {
    if (!selectedFeature) return
    const saved = cityStore.gisModels.find(
      (item) =>
        item.tileset_id === selectedFeature.tilesetId &&
        item.feature_ids.some((id) => Number(id) === selectedFeature.featureId),
    )
    if (saved) setModelId(saved.id)
  }, [selectedFeature, cityStore])

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadCount re-reads the list on purpose
  useEffect(() => {
    if (!modelId) return undefined
    let isCurrent = true
    setItems(null)
    services
      .selectPoisByModel(modelId)
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
  }, [modelId, reloadCount, services])

  // The POI selected on the map: the models it is attached to.
  const selectedPoiId = selectedIds.length === 1 ? selectedIds[0]! : null
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadCount re-reads the links on purpose
  useEffect(() => {
    setSelectedModels(null)
    if (!selectedPoiId || selectedPoiId.startsWith('tmp-')) return undefined
    let isCurrent = true
    services
      .findModelsByPoi(selectedPoiId)
      .then((models) => {
        if (isCurrent) setSelectedModels(models)
      })
      .catch(() => {
        if (isCurrent) setSelectedModels([])
      })
    return () => {
      isCurrent = false
    }
  }, [selectedPoiId, reloadCount, services])

  const model = gisModels.find((item) => item.id === modelId) ?? null
  const selectedPoi = selectedPoiId ? store.get(selectedPoiId) : undefined
  const linkedIds = useMemo(() => new Set(items?.map((item) => item.id)), [items])

  // POIs of the project that can be attached, narrowed by the search words
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision moves when the records change
  const candidates = useMemo(() => {
    const words = keyword.trim().toLowerCase()
    const found = []
    for (const entry of store.entries()) {
      if (linkedIds.has(entry.id) || entry.isPending) continue
      if (words !== '' && !entry.name.toLowerCase().includes(words)) continue
      found.push(entry)
      if (found.length === addListSize) break
    }
    return found
  }, [keyword, linkedIds, store, revision])

  function chooseModel(target: GisModel) {
    setModelId(target.id)
    void showMonomerModel({ store: cityStore, services: cityServices, engine }, target)
  }

  async function attach(target: GisModel, poi: { id: string; name: string }) {
    try {
      await services.linkPoisToModel(target.id, [poi.id])
      toast.success(t`“${poi.name}” is attached to ${target.modelname}.`)
      setReloadCount((count) => count + 1)
    } catch (error) {
      showErrorToast(error)
    }
  }

  async function detach(target: GisModel, item: ModelPoiItem) {
    const poiName = item.name
    const targetName = target.modelname
    const isSure = await confirm({
      type: 'warning',
      title: <Trans>Remove from the model</Trans>,
      message: (
        <Trans>
          Remove “{poiName}” from {targetName}? The POI itself stays in the project.
        </Trans>
      ),
      confirmLabel: <Trans>Remove</Trans>,
      isDestructive: true,
    })
    if (!isSure) return
    try {
      await services.setPoiModels(
        item.id,
        item.modelList.filter((id) => id !== target.id),
      )
      setReloadCount((count) => count + 1)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <div className="ts-city-tab ts-model-poi" data-testid="model-poi">
      <p className="ts-city-tab__hint">
        <Trans>
          Choose a model, or click its building on the map, to see the POIs attached to it. Click a
          POI on the map to see its models.
        </Trans>
      </p>
      {gisModels.length === 0 ? (
        <EmptyState
          title={<Trans>No models yet</Trans>}
          description={<Trans>Save a building as a monomer model in Model › Monomer first.</Trans>}
        />
      ) : (
        <ul className="ts-city-pois__list" aria-label={t`Models`}>
          {gisModels.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="ts-city-pois__item"
                aria-current={item.id === modelId}
                onClick={() => chooseModel(item as GisModel)}
              >
                {item.modelname}
              </button>
            </li>
          ))}
        </ul>
      )}

      {selectedPoi && selectedModels && (
        <section className="ts-boxed" aria-label={t`Models of ${selectedPoi.name}`}>
          <h3 className="ts-city-details__title">
            <Trans>Models of {selectedPoi.name}</Trans>
          </h3>
          {selectedModels.length === 0 ? (
            <p className="ts-city-tab__hint">
              <Trans>This POI is attached to no model.</Trans>
            </p>
          ) : (
            <ul className="ts-model-poi__chips">
              {selectedModels.map((item) => {
                const known = cityStore.gisModels.find((saved) => saved.id === item.id)
                return (
                  <li key={item.id}>
                    <Button disabled={!known} onClick={() => known && chooseModel(known)}>
                      {item.modelname}
                    </Button>
                  </li>
                )
              })}
            </ul>
          )}
        </section>
      )}

      {model && (
        <AttachedPoiSection
          modelname={model.modelname}
          items={items}
          emptyText={<Trans>No POI is attached to this model.</Trans>}
          testId="model-poi-list"
          pois={store}
          action={(item) =>
            canEdit && (
              <Button
                variant="secondary"
                aria-label={t`Remove ${item.name} from the model`}
                onClick={() => void detach(model as GisModel, item)}
              >
                <Trans>Remove</Trans>
              </Button>
            )
          }
        >
          {canEdit && (
            <div className="ts-city-details__actions">
              {selectedPoi && !linkedIds.has(selectedPoi.id) && !selectedPoi.isPending && (
                <Button
                  variant="primary"
                  onClick={() => void attach(model as GisModel, selectedPoi)}
                >
                  <Trans>Attach “{selectedPoi.name}”</Trans>
                </Button>
              )}
              <Button onClick={() => setCopying(model as GisModel)} disabled={items === null}>
                <Trans>Model copy…</Trans>
              </Button>
            </div>
          )}
          {canEdit && (
            <div className="ts-model-poi__add">
              <TextField
                label={t`Add a POI to the model`}
                placeholder={t`Search POIs by name`}
                value={keyword}
                onChange={(event) => setKeyword(event.target.value)}
              />
              {candidates.length === 0 ? (
                <p className="ts-city-tab__hint">
                  <Trans>No other POI of the project matches.</Trans>
                </p>
              ) : (
                <ul className="ts-city-pois__list" aria-label={t`POIs to add`}>
                  {candidates.map((entry) => (
                    <li key={entry.id} className="ts-model-poi__item">
                      <span className="ts-model-poi__name">{entry.name}</span>
                      <Button
                        aria-label={t`Add ${entry.name}`}
                        onClick={() => void attach(model as GisModel, entry)}
                      >
                        <Trans>Add</Trans>
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </AttachedPoiSection>
      )}

      <ModelCopyDialog
        model={copying}
        items={copying && copying.id === modelId ? (items ?? []) : []}
        services={services}
        store={store}
        onClose={() => setCopying(null)}
        onCopied={(datum) => {
          cityStore.gisModels.push(...datum.models)
          const count = datum.models.length
          const poiCount = datum.poiCount
          toast.success(t`Made ${count} copies with ${poiCount} POIs.`)
          void store.reload()
        }}
      />
    </div>
  )
}
