import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { setPreviewProjectToken } from '../../api/preview-token'
import { type Capture, checkPreview, listCaptures } from '../../api/visit'
import { useHashSearch } from '../../app/hash-location'
import type { PageProps } from '../../app/page-props'
import { useParticleBackgroundCovered } from '../../components/background/ParticleBackground'
import { type Engine, EngineProvider, sceneStore } from '../../engine-bridge'
import { currentProject } from '../../state/project'
import { Button, Spinner } from '../../ui'
import { BuildingCanvas } from '../bim4/BuildingCanvas'
import { buildingSession } from '../bim4/building-session'
import { useBuildingProject } from '../bim4/use-building-project'
import { useOwnedEngine } from '../bim4/use-owned-engine'
import { useLibraryModels } from '../library-models/library-models-store'
import { usePoiScene } from '../pois/use-poi-scene'
import { startTour, type Tour } from '../visit/capture-tour'
import { flyToView } from '../visit/tour-flight'
import { WalkTool } from '../visit/WalkTool'
import { type PreviewAddress, previewAddressOf } from './preview-address'
import { type LivenessState, watchLiveness } from './preview-liveness'
import { useEmbedApi } from './use-embed-api'
import { useKioskGuards } from './use-kiosk-guards'
import './preview.css'

/**
 * The public preview (issue 19): a building project, read-only, without signing in, by a link
 * carrying its project token: its models, POIs and library models. `&kiosk=1` is the unattended mode: full screen without chrome,
 * the captures' tour after idle seconds, back to the start after interaction stops, and it
 * recovers by itself from a lost WebGL context, a dropped network or a server restart. Revoking
 * the token ends every open preview within a minute, with a screen that says so.
 */
export function PreviewPage(_props: PageProps) {
  // every screen of the preview is opaque and fills the window: the background would animate
  // unseen behind a kiosk's scene all day
  useParticleBackgroundCovered()
  const address = previewAddressOf(useHashSearch())
  if (!address) return <PreviewEnded reason="invalid" />
  return <LivePreview key={`${address.projectId}:${address.projectToken}`} address={address} />
}

function LivePreview({ address }: { address: PreviewAddress }) {
  const { t } = useLingui()
  const [liveness, setLiveness] = useState<LivenessState | 'checking'>('checking')
  const [projectName, setProjectName] = useState('')
  // a lost WebGL context that does not come back: the scene is built again from scratch
  const [generation, setGeneration] = useState(0)

  useEffect(() => {
    setPreviewProjectToken(address.projectToken)
    // in memory only: a preview must not change which project the editor reopens
    currentProject.projectId = address.projectId
    const stop = watchLiveness(async () => {
      const answer = await checkPreview(address.projectId)
      setProjectName(answer.name)
    }, setLiveness)
    return () => {
      stop()
      setPreviewProjectToken(null)
    }
  }, [address.projectId, address.projectToken])

  if (liveness === 'ended') return <PreviewEnded reason="ended" />
  if (liveness === 'checking') {
    return (
      <div className="ts-preview ts-preview--message">
        <Spinner label={t`Opening the preview`} />
      </div>
    )
  }
  return (
    <div
      className={address.isKiosk ? 'ts-preview ts-preview--kiosk' : 'ts-preview'}
      data-testid="preview"
      data-liveness={liveness}
    >
      <PreviewScene
        key={generation}
        address={address}
        projectName={projectName}
        onContextLost={() => setGeneration((value) => value + 1)}
      />
      {liveness === 'offline' && (
        <p className="ts-preview__offline" role="status">
          <Trans>Connection lost. Showing the last scene; reconnecting…</Trans>
        </p>
      )}
    </div>
  )
}

function PreviewScene(props: {
  address: PreviewAddress
  projectName: string
  onContextLost: () => void
}) {
  const engine = useOwnedEngine()
  const { t } = useLingui()
  if (!engine) return <Spinner label={t`Opening the scene`} />
  return (
    <EngineProvider engine={engine}>
      <SceneView engine={engine} {...props} />
    </EngineProvider>
  )
}

function SceneView({
  engine,
  address,
  projectName,
  onContextLost,
}: {
  engine: Engine
  address: PreviewAddress
  projectName: string
  onContextLost: () => void
}) {
  const { t } = useLingui()
  useBuildingProject(engine)
  const isOpen = useSnapshot(sceneStore).building.isOpen
  const session = useSnapshot(buildingSession)
  usePoiScene(isOpen ? engine : null, 'building', address.projectId)
  // the glTF/SBM models of the project's model library, where the editor placed them
  useLibraryModels('building', address.projectId)
  const [captures, setCaptures] = useState<Capture[]>([])
  const [isTouring, setTouring] = useState(false)
  const tourRef = useRef<Tour | null>(null)
  const stageRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const controller = new AbortController()
    listCaptures(address.projectId, controller.signal).then(setCaptures, () => setCaptures([]))
    return () => controller.abort()
  }, [address.projectId])

  const search = useHashSearch()
  const emit = useEmbedApi({
    run: (name, args) => engine.run(name, args),
    startTour: () => playTour(),
    stopTour: () => stopTour(),
    search,
  })
  const stopTour = () => {
    if (tourRef.current) emit('tour', { isPlaying: false })
    tourRef.current?.stop()
    tourRef.current = null
    setTouring(false)
  }
  const playTour = (): boolean => {
    stopTour()
    if (captures.length === 0) return false
    tourRef.current = startTour(captures, (capture, index) => {
      emit('tour', { isPlaying: true, view: index, name: capture.name })
      return flyToView(engine, capture.camera)
    })
    setTouring(true)
    return true
  }
  useEffect(() => () => tourRef.current?.stop(), [])
  const floors = useSnapshot(sceneStore).building.floors
  useEffect(() => {
    if (!isOpen) return
    emit('ready', {
      projectId: address.projectId,
      floors: floors.map((floor) => ({ id: floor.id, name: floor.name })),
      views: captures.map((capture) => capture.name),
    })
  }, [isOpen, floors, captures, address.projectId, emit])

  useKioskGuards({
    isKiosk: address.isKiosk,
    idleMs: address.idleSeconds * 1000,
    stage: stageRef,
    onIdle: () => {
      if (tourRef.current) return
      if (captures.length > 0) playTour()
      else void engine.run('building.fitToModel', {}).catch(() => undefined)
    },
    onActive: stopTour,
    onContextLost,
  })

  const name = projectName || session.project?.name || ''
  return (
    <div className="ts-preview__stage" ref={stageRef}>
      <BuildingCanvas
        onPick={(pick) =>
          emit(
            'pick',
            pick && {
              point: pick.point,
              meshName: pick.meshName,
              modelId: pick.modelId,
              floorId: pick.floorId,
            },
          )
        }
        label={t`Scene of ${name}`}
      />
      {!address.isKiosk && (
        <header className="ts-preview__bar">
          <h1 className="ts-preview__title" data-testid="preview-title">
            {name}
          </h1>
          <span className="ts-preview__badge">
            <Trans>Read-only preview</Trans>
          </span>
          {isOpen && <WalkTool isCompact />}
          {captures.length > 0 && (
            <nav className="ts-preview__views" aria-label={t`Saved views`}>
              {captures.map((capture, index) => (
                <Button
                  key={capture.id}
                  variant="secondary"
                  onClick={() => {
                    stopTour()
                    void flyToView(engine, capture.camera)
                  }}
                >
                  {capture.name || t`View ${index + 1}`}
                </Button>
              ))}
              <Button onClick={isTouring ? stopTour : () => void playTour()}>
                {isTouring ? <Trans>Stop tour</Trans> : <Trans>Play tour</Trans>}
              </Button>
            </nav>
          )}
        </header>
      )}
      {session.status === 'loading' && (
        <div className="ts-preview__loading">
          <Spinner label={t`Opening the scene`} />
        </div>
      )}
    </div>
  )
}

/** The clear screen a preview ends on: a revoked or expired link, or an incomplete address. */
export function PreviewEnded({ reason }: { reason: 'ended' | 'invalid' }) {
  return (
    <div className="ts-preview ts-preview--message" data-testid="preview-ended">
      <section className="ts-preview__ended" role="alert">
        <h1>
          {reason === 'ended' ? (
            <Trans>This preview link has ended</Trans>
          ) : (
            <Trans>This preview link is incomplete</Trans>
          )}
        </h1>
        <p>
          {reason === 'ended' ? (
            <Trans>
              The project owner revoked this link, or it expired. Ask them for a new link.
            </Trans>
          ) : (
            <Trans>
              The link needs a project and its token. Ask the project owner for it again.
            </Trans>
          )}
        </p>
      </section>
    </div>
  )
}
