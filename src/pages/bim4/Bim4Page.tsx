import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import type { BuildingPick } from '../../../engine/api'
import { navigateHash, useHashPath } from '../../app/hash-location'
import type { PageProps } from '../../app/page-props'
import { matchAppRoute } from '../../app/route-table'
import { EngineProvider, sceneStore, useSceneOpening } from '../../engine-bridge'
import { currentProject } from '../../state/project'
import { Button, EmptyState, ErrorState, SidePanel, Spinner, toast } from '../../ui'
import { OfflinePackagePanel } from '../orders/OfflinePackagePanel'
import { plannedPageDescriptions } from '../planned/planned-descriptions'
import { TemplateList } from '../../components/templates/TemplateList'
import { useProjectPermissions } from '../../components/project/project-permissions'
import { buildingSession, requestSceneReload } from './building-session'
import { GmlPathPanel } from './gml/GmlPathPanel'
import { LocationPanel } from './location/LocationPanel'
import { recordAnchorPick } from './location/location-pick'
import { IotAlarmsPanel } from './iot/IotAlarmsPanel'
import { EventLinkagePanel } from './iot/EventLinkagePanel'
import { IotDevicesPanel } from './iot/IotDevicesPanel'
import { LinkedVideos } from './iot/LinkedVideos'
import { CameraVideos } from '../video/CameraVideos'
import { useIotLive } from './iot/use-iot-live'
import { chooseRouteEndAtPoint } from './gml/route-ends'
import { VisitToolsPanel } from './gml/VisitToolsPanel'
import { EmbedDemoPanel } from '../visit/EmbedDemoPanel'
import { MoreCasesPanel, VisitCapturesPanel, VisitLinkPanel } from '../visit/VisitPanels'
import { ModelLibraryPanel } from './model/ModelLibraryPanel'
import { ModelAnimationTab } from '../library-models/ModelAnimationTab'
import { ModelLibraryTab } from '../library-models/ModelLibraryTab'
import {
  libraryModelsState,
  placeLibraryModelAt,
  useLibraryModels,
} from '../library-models/library-models-store'
import { MaterialsPanel } from './materials/MaterialsPanel'
import { useMaterialOverrides } from './materials/use-material-overrides'
import { usePoiScene } from '../pois/use-poi-scene'
import { PoiModulePanel } from './poi/PoiModulePanel'
import { resetPoiEditing } from './poi/poi-editing'
import { PoiStage } from './poi/PoiStage'
import { LightSettingPanel, StyleSettingPanel } from './style/StylePanels'
import { ModelsByCompanyPanel } from './model-details/ModelsByCompanyPanel'
import { PickInfoBox } from './PickInfoBox'
import { EmptySceneHint } from './EmptySceneHint'
import { SceneStatusBar } from './SceneStatusBar'
import { SpaceSidebar } from './SpaceSidebar'
import { SwitchProjectDialog } from './SwitchProjectDialog'
import { spaceBackPath, spaceLocationOf } from './space-modules'
import { useBuildingProject } from './use-building-project'
import { useOwnedEngine } from './use-owned-engine'
import { useBuildingTracking } from './location/use-building-tracking'
import { projectTexts } from '../../i18n/library-names'
import './bim4.css'

/**
 * Every /bim4/* page of a building project (SPEC §2 "Scene editor at /bim4"). All of them render
 * this one component, so moving between modules and tabs only swaps the side panel: the engine,
 * its canvas and the loaded scene stay. The engine lives as long as the editor is open.
 */
export function Bim4Page(_props: PageProps) {
  const { projectId } = useSnapshot(currentProject)
  // SPEC: the editor opens the current project; without one there is nothing to edit.
  return projectId ? <OpenEditor /> : <NoProjectOpen />
}

/** The engine exists only while a project is open in the editor. */
function OpenEditor() {
  const engine = useOwnedEngine()
  const { t } = useLingui()
  if (!engine) {
    return (
      <div className="ts-bim4 ts-bim4--starting">
        <Spinner label={t`Opening the scene`} />
      </div>
    )
  }
  return (
    <EngineProvider engine={engine}>
      <BuildingEditor engine={engine} />
    </EngineProvider>
  )
}

/**
 * A pasted or bookmarked /bim4 link with no project open: the page keeps its title and says
 * how to get a project, one click from the space project list.
 */
function NoProjectOpen() {
  const { i18n } = useLingui()
  const [path] = useHashPath()
  const { module } = spaceLocationOf(path)
  return (
    <div className="ts-bim4 ts-bim4--starting" data-testid="bim4-no-project">
      <section className="ts-bim4-panel">
        <h1 className="ts-bim4-panel__title">{i18n._(module.label)}</h1>
        <EmptyState
          title={<Trans>Open a space project first.</Trans>}
          action={
            <Button onClick={() => navigateHash(spaceBackPath)}>
              <Trans>Go to space projects</Trans>
            </Button>
          }
        />
      </section>
    </div>
  )
}

function BuildingEditor({ engine }: { engine: NonNullable<ReturnType<typeof useOwnedEngine>> }) {
  const { t, i18n } = useLingui()
  const [path] = useHashPath()
  const { module, tab } = spaceLocationOf(path)
  const session = useSnapshot(buildingSession)
  const [isSwitching, setSwitching] = useState(false)
  useBuildingProject(engine)
  // The project's POIs are drawn in every module; the POI module edits them. The scene is
  // attached once the building is open: POI commands sent before would find no building (and
  // leave 'No building is open.' in the status bar).
  const scene = useSnapshot(sceneStore)
  const isBuildingOpen = scene.building.isOpen
  // what the scene draws is handed to each opening: an upload reopens the building, and the
  // close drops the POIs, statuses and overrides in the engine
  const openedEngine = useSceneOpening(engine, isBuildingOpen ? scene.building.openRevision : 0)
  usePoiScene(openedEngine, 'building', session.projectId)
  // devices, their live statuses on the POIs and alarms (issue 17), in every module
  useIotLive(openedEngine, isBuildingOpen, session.projectId)
  // library materials drawn on meshes (issue 21), in every module
  useMaterialOverrides(openedEngine, isBuildingOpen, session.projectId)
  // glTF/SBM library models placed in the building (issue 21), in every module
  useLibraryModels('building', session.projectId)
  // positioned objects around the building, while the location module is shown (issue 18)
  useBuildingTracking(
    isBuildingOpen ? engine : null,
    session.projectId,
    module.id === 'location',
    session.project?.project_center,
  )
  const { placingId } = useSnapshot(libraryModelsState)
  const isPlacingModel = module.id === 'model' && tab.id === 'placed' && placingId !== null
  // the devices and alarms tabs of the POI module do not edit POIs
  const isPoiModule = module.id === 'poi' && tab.id === 'inventory'
  useEffect(() => {
    if (!isPoiModule) resetPoiEditing()
  }, [isPoiModule])

  function handlePick(pick: BuildingPick | null) {
    const purpose = buildingSession.clickPurpose
    // the engine recorded the pick; the info box shows it from the snapshot
    if (purpose === 'inspect') return
    buildingSession.clickPurpose = 'inspect'
    if (!pick) {
      toast.warning(t`Nothing was hit there. Click on the building.`)
      return
    }
    if (purpose === 'anchor') return recordAnchorPick(pick.point)
    void chooseRouteEndAtPoint(engine, purpose, pick.point)
  }

  const moduleTitle = i18n._(module.label)
  return (
    <div className="ts-bim4" data-testid="bim4-editor" data-module={module.id}>
      <SpaceSidebar
        currentModuleId={module.id}
        onSwitchProject={() => setSwitching(true)}
        onBack={() => navigateHash(spaceBackPath)}
      />
      <SidePanel label={moduleTitle}>
        <div className="ts-bim4-panel">
          <header className="ts-bim4-panel__header">
            <h1 className="ts-bim4-panel__title">{moduleTitle}</h1>
            {session.project && (
              <p className="ts-bim4-panel__project" data-testid="bim4-project-name">
                {projectTexts(session.project).name}
              </p>
            )}
          </header>
          {module.tabs.length > 1 && (
            <nav className="ts-bim4-panel__tabs" aria-label={t`${moduleTitle} tabs`}>
              {module.tabs.map((candidate) => (
                <Link
                  key={candidate.id}
                  href={candidate.path}
                  className="ts-bim4-panel__tab"
                  aria-current={candidate.id === tab.id ? 'page' : undefined}
                >
                  {i18n._(candidate.label)}
                </Link>
              ))}
            </nav>
          )}
          <div className="ts-bim4-panel__body">
            {session.status === 'error' ? (
              <ErrorState message={session.errorMessage?.() ?? null} onRetry={requestSceneReload} />
            ) : (
              <ModuleContent moduleId={module.id} tabId={tab.id} path={path} />
            )}
          </div>
        </div>
      </SidePanel>
      <div className="ts-bim4-stage">
        <PoiStage
          engine={engine}
          onPick={handlePick}
          isActive={isPoiModule}
          onClickPoint={
            isPlacingModel ? (x, y) => void placeLibraryModelAt(engine, { x, y }) : undefined
          }
        />
        {session.status === 'loading' && !session.modelInfo && (
          <div className="ts-bim4-stage__overlay">
            <Spinner label={t`Opening the scene`} />
          </div>
        )}
        {session.clickPurpose !== 'inspect' && (
          <p className="ts-bim4-stage__hint" role="status">
            {session.clickPurpose === 'anchor' ? (
              <Trans>Click the anchor point in the model.</Trans>
            ) : session.clickPurpose === 'routeStart' ? (
              <Trans>Click the start point in the scene.</Trans>
            ) : (
              <Trans>Click the end point in the scene.</Trans>
            )}
          </p>
        )}
        <EmptySceneHint
          isSceneEmpty={
            session.modelInfo?.models.length === 0 &&
            !scene.building.gml.isLoaded &&
            !scene.building.gml.isLoading
          }
          moduleId={module.id}
        />
        <PickInfoBox />
        {session.projectId && <LinkedVideos projectId={session.projectId} />}
        <SceneStatusBar />
      </div>
      <SwitchProjectDialog
        isOpen={isSwitching}
        onOpenChange={setSwitching}
        currentProjectId={session.projectId}
      />
    </div>
  )
}

function ModuleContent({
  moduleId,
  tabId,
  path,
}: {
  moduleId: string
  tabId: string
  path: string
}) {
  const { i18n } = useLingui()
  const { projectId } = useSnapshot(currentProject)
  const { project } = useSnapshot(buildingSession)
  const projectName = project?.name
  const { canEdit } = useProjectPermissions(project)
  if (moduleId === 'model' && tabId === 'materials') return <MaterialsPanel />
  if (moduleId === 'model' && tabId === 'placed') {
    return <ModelLibraryTab scene="building" canEdit={canEdit} />
  }
  if (moduleId === 'model' && tabId === 'animation') {
    return <ModelAnimationTab scene="building" canEdit={canEdit} />
  }
  if (moduleId === 'model' && tabId === 'equipment' && projectId) {
    return <ModelsByCompanyPanel projectId={projectId} />
  }
  if (moduleId === 'model') return <ModelLibraryPanel />
  if (moduleId === 'poi' && tabId === 'devices') return <IotDevicesPanel />
  if (moduleId === 'poi' && tabId === 'alarms') return <IotAlarmsPanel canEdit={canEdit} />
  if (moduleId === 'poi' && tabId === 'linkage') return <EventLinkagePanel />
  if (moduleId === 'poi' && tabId === 'video' && projectId) {
    return <CameraVideos projectId={projectId} />
  }
  if (moduleId === 'poi') return <PoiModulePanel />
  if (moduleId === 'gml') return <GmlPathPanel />
  if (moduleId === 'location') return <LocationPanel />
  if (moduleId === 'style') {
    return tabId === 'lightset' ? <LightSettingPanel /> : <StyleSettingPanel />
  }
  if (moduleId === 'template') return <TemplateList isCompact projectId={projectId} />
  if (moduleId === 'visit' && tabId === 'expand') {
    return (
      <>
        <VisitToolsPanel />
        <EmbedDemoPanel />
      </>
    )
  }
  if (moduleId === 'download' && projectId) {
    return <OfflinePackagePanel projectId={projectId} projectName={projectName ?? ''} />
  }
  if (moduleId === 'visit' && tabId === 'link') return <VisitLinkPanel />
  if (moduleId === 'visit' && tabId === 'preview') return <VisitCapturesPanel />
  if (moduleId === 'visit' && tabId === 'moreCase') return <MoreCasesPanel />
  // Modules other parts of the product fill: say what will be here.
  const description = plannedPageDescriptions[matchAppRoute(path).route.id]
  return (
    <p className="ts-bim4-panel__planned">
      {description ? i18n._(description) : <Trans>This module is being prepared.</Trans>}
    </p>
  )
}
