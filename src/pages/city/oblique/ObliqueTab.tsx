import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { ObliquePhotograph } from '../../../api/city'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState, formatFileSize, Tree, type TreeNode } from '../../../ui'
import {
  addEmptyTileset,
  type CityActionContext,
  deleteTileset,
  flyToTileset,
  renameTileset,
  setTilesetVisible,
  uploadTilesetFile,
} from '../city-actions'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { useCityServices } from '../city-services'
import type { CityTilesetState } from '../../../../engine/api'
import { PlacementDialog } from './PlacementDialog'
import { RenameDialog } from './RenameDialog'
import { partNameFromUri } from './part-name'

/** A node of the oblique-photography tree: a tileset (layer 1) or one of its parts (layer 2). */
interface ObliqueNode extends TreeNode {
  tilesetId: string
  /** Set on parts: the index of the root's child. */
  partIndex?: number
  children?: ObliqueNode[]
}

/** What the upload and update file inputs accept. */
const tilesetAccept = '.zip,.3tz,application/zip,application/x-zip-compressed'

/** The tree's nodes: every tileset with its top-level parts (SPEC §2: a 2-layer tree). */
export function obliqueTreeNodes(
  tilesets: readonly ObliquePhotograph[],
  partName: (index: number) => string,
): ObliqueNode[] {
  return tilesets.map((tileset) => ({
    id: `tileset:${tileset.id}`,
    name: tileset.name,
    tilesetId: tileset.id,
    children: tileset.top_tiles.map((part) => ({
      id: `part:${tileset.id}:${part.index}`,
      name: partNameFromUri(part.content_uri) || part.name || partName(part.index + 1),
      tilesetId: tileset.id,
      partIndex: part.index,
    })),
  }))
}

/**
 * The oblique-photography tab: the project's tilesets as a tree (a part's click flies there),
 * upload and update with real progress in the upload window, the server's reason when an
 * upload is refused, and for the chosen tileset: show/hide, rename, placement and delete.
 * A tileset can also be added by name first and its content uploaded later
 * (`/obliquephotograph/add`, then `uploadTiltModel` with its id).
 */
export function ObliqueTab() {
  const { t } = useLingui()
  const store = useCityProjectStore()
  const services = useCityServices()
  const engine = useEngine()
  const context: CityActionContext = { store, services, engine }
  const canEdit = useCanEditCityProject()
  const { tilesets, lastUploadRefusal } = useSnapshot(store)
  const scene = useSnapshot(sceneStore)
  const [selectedTilesetId, setSelectedTilesetId] = useState<string | null>(null)
  const [isUploading, setIsUploading] = useState(false)
  const [dialog, setDialog] = useState<'new' | 'rename' | 'placement' | null>(null)
  const uploadInput = useRef<HTMLInputElement>(null)
  const updateInput = useRef<HTMLInputElement>(null)

  const selected = store.tilesets.find((tileset) => tileset.id === selectedTilesetId) ?? null
  const selectedView = tilesets.find((tileset) => tileset.id === selectedTilesetId) ?? null
  const nodes = obliqueTreeNodes(tilesets as ObliquePhotograph[], (number) => t`Part ${number}`)

  async function upload(event: ChangeEvent<HTMLInputElement>, updateId?: string) {
    const file = event.target.files?.[0]
    // cleared so choosing the same file again still fires a change
    event.target.value = ''
    if (!file) return
    setIsUploading(true)
    try {
      const tileset = await uploadTilesetFile(context, file, updateId ? { updateId } : {})
      if (tileset) setSelectedTilesetId(tileset.id)
    } finally {
      setIsUploading(false)
    }
  }

  function handleSelect(node: ObliqueNode) {
    setSelectedTilesetId(node.tilesetId)
    const tileset = store.tilesets.find((candidate) => candidate.id === node.tilesetId)
    if (tileset && node.partIndex !== undefined) void flyToTileset(context, tileset, node.partIndex)
  }

  async function remove(tileset: ObliquePhotograph) {
    if (!(await confirmDelete({ itemName: tileset.name }))) return
    if (await deleteTileset(context, tileset)) setSelectedTilesetId(null)
  }

  const refusedFileName = lastUploadRefusal?.fileName ?? ''
  const engineState = selectedView
    ? scene.city.tilesets.find((tileset) => tileset.id === selectedView.id)
    : undefined

  return (
    <div className="ts-city-tab" data-testid="city-oblique-tab">
      {canEdit && (
        <div className="ts-city-tab__actions">
          <Button
            variant="primary"
            isBusy={isUploading}
            onClick={() => uploadInput.current?.click()}
          >
            <Trans>Upload oblique photography</Trans>
          </Button>
          <input
            ref={uploadInput}
            type="file"
            accept={tilesetAccept}
            hidden
            data-testid="oblique-upload-input"
            aria-label={t`Upload oblique photography`}
            onChange={(event) => void upload(event)}
          />
          <Button onClick={() => setDialog('new')}>
            <Trans>New oblique photography</Trans>
          </Button>
          <RenameDialog
            isOpen={dialog === 'new'}
            onOpenChange={(isOpen) => setDialog(isOpen ? 'new' : null)}
            title={<Trans>New oblique photography</Trans>}
            currentName=""
            onRename={async (name) => {
              const tileset = await addEmptyTileset(context, name)
              if (tileset) setSelectedTilesetId(tileset.id)
              return tileset !== null
            }}
          />
        </div>
      )}
      <p className="ts-city-tab__hint">
        <Trans>
          A 3D Tiles tileset as a zip (tileset.json at the top or in one folder) or a .3tz file.
          OSGB must be converted to 3D Tiles first.
        </Trans>
      </p>
      {lastUploadRefusal && (
        <div className="ts-city-tab__refusal" role="alert" data-testid="oblique-upload-refusal">
          <strong>
            <Trans>{refusedFileName} was refused:</Trans>
          </strong>{' '}
          {lastUploadRefusal.message()}
        </div>
      )}
      {nodes.length === 0 ? (
        <EmptyState
          title={<Trans>No oblique photography yet</Trans>}
          description={<Trans>Upload a 3D Tiles package to see it on the map.</Trans>}
        />
      ) : (
        <Tree
          label={t`Oblique photography`}
          nodes={nodes}
          selectedId={selectedTilesetId ? `tileset:${selectedTilesetId}` : undefined}
          onSelect={handleSelect}
          renderLabel={(node) =>
            node.partIndex === undefined ? (
              <span className="ts-city-tree__tileset">
                {node.name}
                {tilesets.find((tileset) => tileset.id === node.tilesetId)?.is_visible ===
                  false && (
                  <span className="ts-city-tree__badge">
                    <Trans>hidden</Trans>
                  </span>
                )}
                {tilesets.find((tileset) => tileset.id === node.tilesetId)?.root_url === null && (
                  <span className="ts-city-tree__badge">
                    <Trans>no content yet</Trans>
                  </span>
                )}
              </span>
            ) : (
              node.name
            )
          }
        />
      )}
      {selected && selectedView && (
        <section
          className="ts-boxed"
          aria-label={t`Selected oblique photography`}
          data-testid="oblique-details"
        >
          <h3 className="ts-city-details__title">{selectedView.name}</h3>
          {selectedView.root_url === null && (
            <p className="ts-city-tab__hint" data-testid="oblique-no-content">
              <Trans>
                No content yet: upload a 3D Tiles package (.zip or .3tz) for it with Upload content.
              </Trans>
            </p>
          )}
          <dl className="ts-city-details__facts">
            {selectedView.stats && (
              <>
                <dt>
                  <Trans>Tiles</Trans>
                </dt>
                <dd>{selectedView.stats.tile_count}</dd>
                <dt>
                  <Trans>Size</Trans>
                </dt>
                <dd>{formatFileSize(selectedView.stats.total_bytes)}</dd>
              </>
            )}
            {selectedView.asset_version && (
              <>
                <dt>
                  <Trans>3D Tiles version</Trans>
                </dt>
                <dd>{selectedView.asset_version}</dd>
              </>
            )}
            <dt>
              <Trans>Georeference</Trans>
            </dt>
            <dd>
              {selectedView.placement ? (
                <Trans>placed by hand</Trans>
              ) : selectedView.is_georeferenced ? (
                <Trans>its own</Trans>
              ) : (
                <Trans>none: placed at the project’s location</Trans>
              )}
            </dd>
            {engineState && (
              <>
                <dt>
                  <Trans>Tiles loaded</Trans>
                </dt>
                <dd>{engineState.tilesLoaded}</dd>
              </>
            )}
          </dl>
          {selectedView.warnings.length > 0 && (
            <ul className="ts-warning-list">
              {selectedView.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
          <div className="ts-city-details__actions">
            {selectedView.root_url !== null && (
              <Button onClick={() => void flyToTileset(context, selected)}>
                <Trans>Fly to</Trans>
              </Button>
            )}
            {canEdit && (
              <>
                <Button
                  onClick={() => void setTilesetVisible(context, selected, !selected.is_visible)}
                >
                  {selectedView.is_visible ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
                </Button>
                <Button onClick={() => setDialog('rename')}>
                  <Trans>Rename</Trans>
                </Button>
                <Button onClick={() => setDialog('placement')}>
                  <Trans>Placement</Trans>
                </Button>
                <Button isBusy={isUploading} onClick={() => updateInput.current?.click()}>
                  {selectedView.root_url === null ? (
                    <Trans>Upload content</Trans>
                  ) : (
                    <Trans>Update oblique photography</Trans>
                  )}
                </Button>
                <input
                  ref={updateInput}
                  type="file"
                  accept={tilesetAccept}
                  hidden
                  data-testid="oblique-update-input"
                  aria-label={
                    selectedView.root_url === null
                      ? t`Upload content`
                      : t`Update oblique photography`
                  }
                  onChange={(event) => void upload(event, selected.id)}
                />
                <Button variant="danger" onClick={() => void remove(selected)}>
                  <Trans>Delete</Trans>
                </Button>
              </>
            )}
          </div>
          <RenameDialog
            isOpen={dialog === 'rename'}
            onOpenChange={(isOpen) => setDialog(isOpen ? 'rename' : null)}
            title={<Trans>Rename oblique photography</Trans>}
            currentName={selectedView.name}
            onRename={(name) => renameTileset(context, selected, name)}
          />
          <PlacementDialog
            isOpen={dialog === 'placement'}
            onOpenChange={(isOpen) => setDialog(isOpen ? 'placement' : null)}
            tileset={selected}
            engineState={engineState as CityTilesetState | undefined}
            fallbackCenter={{ lng: scene.city.camera.lng, lat: scene.city.camera.lat }}
            context={context}
          />
        </section>
      )}
    </div>
  )
}
