import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { BuildingModel } from '../../../../contract/building'
import { deleteBimModel } from '../../../api/building'
import { ApiError } from '../../../api/client'
import { showErrorToast } from '../../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState, Spinner, toast } from '../../../ui'
import { buildingSession, requestSceneReload } from '../building-session'
import { FloorControls } from './FloorControls'
import {
  checkFloorFiles,
  checkModelFile,
  checkShellFiles,
  type FileCheck,
  floorFileAccept,
  shellFileAccept,
} from './model-files'
import { ModelFormDialog } from './ModelFormDialog'
import { ModelCount } from './ModelCount'
import { ModelListItem } from './ModelListItem'
import { useProjectPermissions } from '../../../components/project/project-permissions'
import { uploadErrorText } from './upload-messages'
import {
  type UploadLabels,
  uploadFloors,
  uploadReplacement,
  uploadShell,
} from './upload-model-files'
import { ViewControls } from './ViewControls'

type Busy = { kind: 'shell' | 'floors' } | { kind: 'model'; modelId: string } | null

/**
 * The model library tab (SPEC §2 "Model library"): upload the shell (structure .json) and the
 * floors (SBMs or one ZIP) with real progress in the upload window, the list of models with
 * their load state, edit (name, role, floor), update and delete, then floor, shell and view
 * controls. Every change reopens the scene so what is drawn matches the server.
 */
export function ModelLibraryPanel() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const session = useSnapshot(buildingSession)
  const scene = useSnapshot(sceneStore)
  const [busy, setBusy] = useState<Busy>(null)
  /** The model whose form is open. */
  const [editing, setEditing] = useState<BuildingModel | null>(null)
  const shellInputRef = useRef<HTMLInputElement>(null)
  const floorInputRef = useRef<HTMLInputElement>(null)
  const projectId = session.projectId
  const isPaid = session.project?.is_paid ?? false
  const { canEdit } = useProjectPermissions(session.project)

  async function runUpload(
    kind: Busy,
    check: FileCheck,
    send: (files: File[], labels: UploadLabels) => Promise<unknown>,
  ) {
    if (!check.isValid) {
      toast.warning(i18n._(check.reason))
      return
    }
    if (busy) return
    setBusy(kind)
    try {
      await send(check.files, {
        // made when drawn, so the rows follow a language switch
        convertingLabel: check.needsConversion ? () => t`converting…` : null,
      })
      toast.success(t`Uploaded.`)
      requestSceneReload()
    } catch (error) {
      if (!(error instanceof ApiError && error.reason === 'aborted')) {
        toast.error(uploadErrorText(error))
      }
    } finally {
      setBusy(null)
    }
  }

  function filesOf(event: ChangeEvent<HTMLInputElement>): File[] {
    const files = Array.from(event.target.files ?? [])
    // cleared so picking the same file again still fires a change
    event.target.value = ''
    return files
  }

  async function handleDelete(model: Pick<BuildingModel, 'id' | 'name'>) {
    if (!(await confirmDelete({ itemName: model.name }))) return
    setBusy({ kind: 'model', modelId: model.id })
    try {
      await deleteBimModel(model.id)
      toast.success(t`Deleted.`)
      requestSceneReload()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusy(null)
    }
  }

  if (!projectId) return null
  const models = session.modelInfo?.models ?? []
  const floorNames = new Map(
    session.modelInfo?.structure.floors.map((floor) => [floor.id, floor.name]),
  )

  return (
    <div className="ts-bim4-library">
      {canEdit && (
        <div className="ts-bim4-library__uploads">
          <Button
            onClick={() => shellInputRef.current?.click()}
            isBusy={busy?.kind === 'shell'}
            disabled={busy !== null}
          >
            <Trans>Upload shell</Trans>
          </Button>
          <Button
            onClick={() => floorInputRef.current?.click()}
            isBusy={busy?.kind === 'floors'}
            disabled={busy !== null}
          >
            <Trans>Upload floors</Trans>
          </Button>
          <input
            ref={shellInputRef}
            type="file"
            hidden
            accept={shellFileAccept}
            aria-label={t`Shell file (a model or a building structure .json)`}
            data-testid="shell-file-input"
            onChange={(event) =>
              void runUpload({ kind: 'shell' }, checkShellFiles(filesOf(event)), (files, labels) =>
                uploadShell(projectId, files, labels),
              )
            }
          />
          <input
            ref={floorInputRef}
            type="file"
            hidden
            multiple
            accept={floorFileAccept}
            aria-label={t`Floor files (.glb, .gltf, .dae, .fbx, .sbm or a .zip of them)`}
            data-testid="floor-file-input"
            onChange={(event) =>
              void runUpload({ kind: 'floors' }, checkFloorFiles(filesOf(event)), (files, labels) =>
                uploadFloors(projectId, files, labels),
              )
            }
          />
        </div>
      )}
      <p className="ts-bim4-muted" data-testid="upload-help">
        <Trans>
          Drop your models (.glb, .gltf with its files, .dae, .fbx or .sbm, or one .zip of them) on
          “Upload floors”: each becomes a floor, converted on the server, stacked 3 m apart (set
          each floor’s height below). “Upload shell” takes the one model around them, or a building
          structure .json.
        </Trans>
      </p>

      {/* findmodelnum is an editor's call: a read-only visitor sees the list alone */}
      {canEdit && <ModelCount projectId={projectId} revision={session.modelInfo} />}
      <section aria-label={t`Models`}>
        {session.status === 'loading' && !session.modelInfo ? (
          <Spinner label={t`Loading models`} />
        ) : models.length === 0 ? (
          <EmptyState
            title={<Trans>No models yet</Trans>}
            description={
              <Trans>
                Upload your models as floors (and a shell if you have one) to build the scene.
              </Trans>
            }
          />
        ) : (
          <ul className="ts-bim4-library__list" data-testid="model-list">
            {models.map((model) => {
              const state = scene.building.models.find((candidate) => candidate.id === model.id)
              return (
                <ModelListItem
                  key={model.id}
                  model={model}
                  loadState={state?.loadState ?? null}
                  errorMessage={state?.errorMessage ?? null}
                  floorName={model.floor_id ? (floorNames.get(model.floor_id) ?? null) : null}
                  isProjectPaid={isPaid}
                  canEdit={canEdit}
                  isBusy={busy !== null}
                  onDelete={() => void handleDelete(model)}
                  onEdit={() => setEditing(model as BuildingModel)}
                  onFit={() =>
                    void engine
                      .run('building.fitToModel', { modelId: model.id })
                      .catch(() => undefined)
                  }
                  onReplace={(files) =>
                    void runUpload(
                      { kind: 'model', modelId: model.id },
                      checkModelFile(files),
                      (checked) => uploadReplacement(model.id, checked),
                    )
                  }
                />
              )
            })}
          </ul>
        )}
      </section>

      {editing && (
        <ModelFormDialog
          key={editing.id}
          model={editing}
          floors={session.modelInfo?.structure.floors ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            requestSceneReload()
          }}
        />
      )}

      {scene.building.isOpen && (
        <>
          <FloorControls />
          <ViewControls />
        </>
      )}
    </div>
  )
}
