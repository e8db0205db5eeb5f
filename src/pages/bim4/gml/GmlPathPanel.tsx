import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { GmlDisplayMode } from '../../../../engine/api'
import { updateGmlPlacement } from '../../../api/gml'
import { showErrorToast } from '../../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, EmptyState, ErrorState, formatFileSize, Spinner, toast } from '../../../ui'
import { buildingSession } from '../building-session'
import { gmlMessages } from './gml-messages'
import { loadProjectGml } from './load-project-gml'
import { PlacementEditor } from './PlacementEditor'
import { ShortestPathTool } from './ShortestPathTool'
import { uploadGmlFile } from './upload-gml'
import { useProjectPermissions } from '../../../components/project/project-permissions'

/** `accept` of the GML picker. */
const gmlFileAccept = '.gml,application/gml+xml,application/xml,text/xml'

/**
 * The GML path tab (issue #6): upload the project's IndoorGML file (upload window, real
 * progress), see whether it is loaded, choose how the network is drawn, place it on the
 * building and find shortest paths.
 */
export function GmlPathPanel() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const session = useSnapshot(buildingSession)
  const { building } = useSnapshot(sceneStore)
  const gml = building.gml
  const inputRef = useRef<HTMLInputElement>(null)
  const [isUploading, setUploading] = useState(false)
  const projectId = session.projectId
  const { canEdit } = useProjectPermissions(session.project)
  if (!projectId) return null
  const file = session.gmlFile

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const [chosen, ...others] = Array.from(event.target.files ?? [])
    event.target.value = ''
    if (!chosen || !projectId) return
    if (others.length > 0 || !chosen.name.toLowerCase().endsWith('.gml')) {
      toast.warning(t`Choose one .gml file.`)
      return
    }
    setUploading(true)
    try {
      await uploadGmlFile(projectId, chosen)
      toast.success(t`Uploaded.`)
      await loadProjectGml(engine, projectId)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setUploading(false)
    }
  }

  const uploadButton = canEdit && (
    <>
      <Button onClick={() => inputRef.current?.click()} isBusy={isUploading}>
        {file ? <Trans>Replace GML file</Trans> : <Trans>Upload GML file</Trans>}
      </Button>
      <input
        ref={inputRef}
        type="file"
        hidden
        accept={gmlFileAccept}
        aria-label={t`GML file (.gml)`}
        data-testid="gml-file-input"
        onChange={(event) => void handleFile(event)}
      />
    </>
  )

  return (
    <div className="ts-bim4-gml">
      <section className="ts-bim4-gml__file" aria-label={t`GML file`}>
        {session.gmlStatus === 'unknown' ? (
          <Spinner label={t`Loading the GML path`} />
        ) : !file ? (
          <EmptyState title={i18n._(gmlMessages.noFile)} action={uploadButton} />
        ) : (
          <>
            <p className="ts-bim4-gml__name" data-testid="gml-file-name">
              {file.file_name}
            </p>
            <p className="ts-bim4-muted">
              <GmlCounts
                sizeText={formatFileSize(file.size_bytes)}
                stateCount={file.state_count}
                transitionCount={file.transition_count}
              />
            </p>
            {session.gmlStatus === 'loading' && <Spinner label={t`Loading the GML path`} />}
            {session.gmlStatus === 'failed' && (
              <ErrorState
                message={i18n._(gmlMessages.loadFailed)}
                onRetry={() => void loadProjectGml(engine, projectId)}
              />
            )}
            {session.gmlStatus === 'loaded' && gml.isLoaded && (
              <p className="ts-bim4-gml__loaded" data-testid="gml-network">
                <NetworkSummary
                  stateCount={gml.stateCount}
                  transitionCount={gml.transitionCount}
                  storeyCount={gml.storeys.length}
                />
              </p>
            )}
            {uploadButton}
          </>
        )}
      </section>
      {file && session.gmlStatus === 'loaded' && !gml.isLoaded && (
        <p className="ts-bim4-muted" role="status">
          {i18n._(gmlMessages.notLoaded)}
        </p>
      )}
      {gml.isLoaded && (
        <>
          <DisplayModeChoice projectId={projectId} />
          <PlacementEditor projectId={projectId} />
        </>
      )}
      <ShortestPathTool />
    </div>
  )
}

function GmlCounts({
  sizeText,
  stateCount,
  transitionCount,
}: {
  sizeText: string
  stateCount: number
  transitionCount: number
}) {
  return (
    <Trans>
      {sizeText} · {stateCount} spaces · {transitionCount} connections
    </Trans>
  )
}

function NetworkSummary({
  stateCount,
  transitionCount,
  storeyCount,
}: {
  stateCount: number
  transitionCount: number
  storeyCount: number
}) {
  return (
    <Trans>
      Network loaded: {stateCount} spaces, {transitionCount} connections on {storeyCount} storeys
    </Trans>
  )
}

/** SPEC §9 path display modes 0–3, applied at once and saved with the placement. */
function DisplayModeChoice({ projectId }: { projectId: string }) {
  const { t } = useLingui()
  const engine = useEngine()
  const { building } = useSnapshot(sceneStore)
  const groupName = useId()
  const gml = building.gml
  const modes: { mode: GmlDisplayMode; label: string }[] = [
    { mode: 0, label: t`Hide all` },
    { mode: 1, label: t`Node and path` },
    { mode: 2, label: t`Node only` },
    { mode: 3, label: t`Path only` },
  ]

  async function choose(mode: GmlDisplayMode) {
    try {
      await engine.run('gml.setDisplayMode', { mode })
      await updateGmlPlacement({
        project_id: projectId,
        placement: {
          offset: [...gml.placement.offset],
          rotation_deg: gml.placement.rotationDeg,
          scale: gml.placement.scale,
        },
        display_mode: mode,
      })
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <fieldset className="ts-bim4-fieldset">
      <legend>
        <Trans>Display</Trans>
      </legend>
      {modes.map(({ mode, label }) => (
        <label key={mode} className="ts-bim4-check">
          <input
            type="radio"
            name={groupName}
            value={mode}
            checked={gml.displayMode === mode}
            onChange={() => void choose(mode)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  )
}
