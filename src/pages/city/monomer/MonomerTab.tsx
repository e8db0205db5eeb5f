import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import type { GisModel } from '../../../api/city'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState, Tree, type TreeNode } from '../../../ui'
import {
  type CityActionContext,
  deleteMonomerModel,
  renameMonomerModel,
  saveMonomerModel,
  showMonomerModel,
} from '../city-actions'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { useCityServices } from '../city-services'
import { RenameDialog } from '../oblique/RenameDialog'
import { propertyRows, suggestedModelName } from './feature-properties'

/** A node of the single-building tree: a tileset (layer 1) or a saved model in it (layer 2). */
interface MonomerNode extends TreeNode {
  modelId?: string
  children?: MonomerNode[]
}

/** The tree: models grouped under their tileset (SPEC §2: a 2-layer tree). */
export function monomerTreeNodes(
  models: readonly GisModel[],
  tilesetNames: ReadonlyMap<string, string>,
  unlinkedName: string,
): MonomerNode[] {
  const groups = new Map<string, MonomerNode>()
  for (const model of models) {
    const groupId = model.tileset_id ?? ''
    let group = groups.get(groupId)
    if (!group) {
      group = {
        id: `group:${groupId}`,
        name: (model.tileset_id && tilesetNames.get(model.tileset_id)) || unlinkedName,
        children: [],
      }
      groups.set(groupId, group)
    }
    group.children?.push({ id: `model:${model.id}`, name: model.modelname, modelId: model.id })
  }
  return [...groups.values()]
}

/**
 * The monomer (single-building) tab: click a building on the map to select and highlight it and
 * read its batch-table properties, save it as a named model, and find, rename or delete the
 * saved models in the single-building tree.
 */
export function MonomerTab() {
  const { t } = useLingui()
  const store = useCityProjectStore()
  const services = useCityServices()
  const engine = useEngine()
  const context: CityActionContext = { store, services, engine }
  const canEdit = useCanEditCityProject()
  const { gisModels, tilesets } = useSnapshot(store)
  const { selectedFeature } = useSnapshot(sceneStore).city
  const [dialog, setDialog] = useState<
    { kind: 'save' } | { kind: 'rename'; model: GisModel } | null
  >(null)
  const [selectedModelId, setSelectedModelId] = useState<string | null>(null)

  const tilesetNames = new Map(tilesets.map((tileset) => [tileset.id, tileset.name]))
  const nodes = monomerTreeNodes(gisModels as GisModel[], tilesetNames, t`Not linked to a tileset`)
  const selectedModel = store.gisModels.find((model) => model.id === selectedModelId) ?? null
  const rows = selectedFeature ? propertyRows(selectedFeature.properties) : []
  const featureNumber = selectedFeature?.featureId ?? 0

  return (
    <div className="ts-city-tab" data-testid="city-monomer-tab">
      <p className="ts-city-tab__hint">
        <Trans>Click a building on the map to select it and see its properties.</Trans>
      </p>
      <section
        className="ts-boxed"
        aria-label={t`Selected building`}
        data-testid="monomer-selection"
      >
        {selectedFeature ? (
          <>
            <h3 className="ts-city-details__title">
              <Trans>Building {featureNumber}</Trans>
            </h3>
            {rows.length === 0 ? (
              <p className="ts-city-tab__hint">
                <Trans>This building has no properties.</Trans>
              </p>
            ) : (
              <table className="ts-city-properties" data-testid="monomer-properties">
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Property</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Value</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.name}>
                      <th scope="row">{row.name}</th>
                      <td title={row.storedValue ?? row.value}>{row.value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {canEdit && (
              <div className="ts-city-details__actions">
                <Button variant="primary" onClick={() => setDialog({ kind: 'save' })}>
                  <Trans>Save as monomer model</Trans>
                </Button>
              </div>
            )}
          </>
        ) : (
          <p className="ts-city-tab__hint">
            <Trans>No building selected.</Trans>
          </p>
        )}
      </section>
      <h3 className="ts-city-tab__heading">
        <Trans>Monomer models</Trans>
      </h3>
      {nodes.length === 0 ? (
        <EmptyState title={<Trans>No monomer models yet</Trans>} />
      ) : (
        <Tree
          label={t`Monomer models`}
          nodes={nodes}
          selectedId={selectedModelId ? `model:${selectedModelId}` : undefined}
          onSelect={(node) => {
            if (!node.modelId) return
            setSelectedModelId(node.modelId)
            const model = store.gisModels.find((candidate) => candidate.id === node.modelId)
            if (model) void showMonomerModel(context, model)
          }}
        />
      )}
      {selectedModel && canEdit && (
        <div className="ts-city-details__actions" data-testid="monomer-model-actions">
          <Button onClick={() => setDialog({ kind: 'rename', model: selectedModel })}>
            <Trans>Rename</Trans>
          </Button>
          <Button
            variant="danger"
            onClick={async () => {
              if (!(await confirmDelete({ itemName: selectedModel.modelname }))) return
              if (await deleteMonomerModel(context, selectedModel.id)) setSelectedModelId(null)
            }}
          >
            <Trans>Delete</Trans>
          </Button>
        </div>
      )}
      <RenameDialog
        isOpen={dialog?.kind === 'save'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        title={<Trans>Save as monomer model</Trans>}
        currentName={
          selectedFeature
            ? suggestedModelName(selectedFeature.properties, t`Building ${featureNumber}`)
            : ''
        }
        onRename={async (name) => {
          const selection = sceneStore.city.selectedFeature
          if (!selection) return false
          return saveMonomerModel(
            context,
            {
              tilesetId: selection.tilesetId,
              featureId: selection.featureId,
              properties: { ...selection.properties },
            },
            name,
          )
        }}
      />
      <RenameDialog
        isOpen={dialog?.kind === 'rename'}
        onOpenChange={(isOpen) => !isOpen && setDialog(null)}
        title={<Trans>Rename monomer model</Trans>}
        currentName={dialog?.kind === 'rename' ? dialog.model.modelname : ''}
        onRename={(name) =>
          dialog?.kind === 'rename'
            ? renameMonomerModel(context, dialog.model.id, name)
            : Promise.resolve(false)
        }
      />
    </div>
  )
}
