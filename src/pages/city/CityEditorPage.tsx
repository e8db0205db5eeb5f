import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { PageProps } from '../../app/page-props'
import { navigateHash, useHashPath } from '../../app/hash-location'
import {
  Engine,
  EngineProvider,
  sceneStore,
  useEngine,
  useFileAddressRenewal,
} from '../../engine-bridge'
import { currentProject } from '../../state/project'
import { projectTexts } from '../../i18n/library-names'
import { Button, EmptyState, ErrorState, SidePanel, Spinner, Tabs } from '../../ui'
import { TemplateList } from '../../components/templates/TemplateList'
import { useIotLive } from '../bim4/iot/use-iot-live'
import { pickBuildingAt } from './city-actions'
import { CityProjectProvider, useCanEditCityProject } from './city-context'
import { cityModules, cityTabPath, parseCityPath, type CityTab } from './city-modules'
import {
  type CityProjectState,
  createCityProjectStore,
  loadCityProject,
} from './city-project-store'
import { CityServicesProvider, defaultCityServices, useCityServices } from './city-services'
import { CityMap } from './CityMap'
import { CityMapStatus } from './CityMapStatus'
import { CityStatusBar } from './CityStatusBar'
import { CityMapControls } from './map-controls/CityMapControls'
import { BasemapTab } from './basemap/BasemapTab'
import {
  CityModelSettingTab,
  CityOtherSettingTab,
  CityPersonalSettingTab,
} from './style/CityStylePanels'
import { ModelPoiTab } from './model-poi/ModelPoiTab'
import { ModelAnimationTab } from '../library-models/ModelAnimationTab'
import { ModelLibraryTab } from '../library-models/ModelLibraryTab'
import { placeLibraryModelAt, useLibraryModels } from '../library-models/library-models-store'
import { MonomerTab } from './monomer/MonomerTab'
import { ObliqueTab } from './oblique/ObliqueTab'
import { handleCityPoiClick, hoverCityPoi } from './pois/city-poi-actions'
import { CityAlarmsTab } from './pois/CityAlarmsTab'
import { CityMonomerPoiTab } from './pois/CityMonomerPoiTab'
import { CityPoiInventoryTab } from './pois/CityPoiInventoryTab'
import { CityPoiManageTab } from './pois/CityPoiManageTab'
import { useCityPoiDrag } from './pois/use-city-poi-drag'
import { useCityPois } from './pois/use-city-pois'
import { AnchorTab } from './draw/AnchorTab'
import { DrawTab } from './draw/DrawTab'
import { FenceTab } from './draw/FenceTab'
import { GpsTab } from './draw/GpsTab'
import { NavigationTab } from './draw/NavigationTab'
import { TourTab } from './draw/TourTab'
import { pickTilesetAnchorAt } from './draw/tileset-anchor-pick'
import { useCityDrawings } from './draw/use-city-drawings'
import { useCityTracking } from './draw/use-city-tracking'
import './city.css'

/**
 * Every /home route renders this page, so React keeps one instance (and one engine, one map)
 * while the user moves between modules and tabs.
 */
export function CityEditorPage(_props: PageProps) {
  const [engine, setEngine] = useState<Engine | null>(null)
  useEffect(() => {
    const created = new Engine()
    setEngine(created)
    return () => created.dispose()
  }, [])
  if (!engine) return null
  return (
    <EngineProvider engine={engine}>
      <CityServicesProvider services={defaultCityServices}>
        <CityLiveStatuses />
        <CityEditor />
      </CityServicesProvider>
    </EngineProvider>
  )
}

/**
 * Device statuses colour the city's POIs live, alarms are announced and followed, and the
 * alarm list (POI → Alarms) stays current, as in the building editor (issue 17): the project's
 * live stream, while its city is open.
 */
function CityLiveStatuses() {
  const engine = useEngine()
  const { projectId } = useSnapshot(currentProject)
  const cityScene = useSnapshot(sceneStore).city
  useIotLive(engine, cityScene.isOpen && cityScene.projectId === projectId, projectId, 'city')
  return null
}

/** Props of {@link CityEditor}. */
export interface CityEditorProps {
  /** The store to show; tests pass one they can inspect. */
  store?: CityProjectState
}

/**
 * The city editor frame: the sidebar of modules, a resizable side panel with the module's
 * sub-tabs, the map and the status bar. Needs an EngineProvider and CityServicesProvider above.
 */
export function CityEditor({ store: givenStore }: CityEditorProps) {
  const { t, i18n } = useLingui()
  const [path] = useHashPath()
  const { module, tab } = parseCityPath(path)
  const [store] = useState(() => givenStore ?? createCityProjectStore())
  const services = useCityServices()
  const engine = useEngine()
  const { projectId } = useSnapshot(currentProject)
  const { loadState, loadError, project } = useSnapshot(store)
  const [retryCount, setRetryCount] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: retryCount re-runs the load on purpose
  useEffect(() => {
    if (!projectId) return
    const controller = new AbortController()
    void loadCityProject(store, services, projectId, controller.signal)
    return () => controller.abort()
  }, [projectId, services, store, retryCount])
  // tiles and the basemap stream all day: their addresses are asked for again when they expire
  const findAddressesAgain = useCallback(
    () =>
      projectId
        ? Promise.all([
            services.findObliquePhotographs({ projectId }),
            services.findBasemap({ projectId }),
          ])
        : Promise.resolve([]),
    [projectId, services],
  )
  useFileAddressRenewal(projectId ? findAddressesAgain : null)
  useCityPois(projectId)
  const stageRef = useRef<HTMLDivElement>(null)
  useCityPoiDrag(engine, stageRef, module.id === 'poi' && projectId !== null)
  useCityDrawings(projectId)
  useLibraryModels('city', projectId)
  // Positions and fence events are shown (live, or polled while the stream is down) only while a
  // location tab is.
  useCityTracking(projectId, module.id === 'location' && (tab.id === 'gps' || tab.id === 'fence'))

  if (!projectId) {
    return (
      <div className="ts-city ts-city--empty">
        <EmptyState
          title={<Trans>No project is open</Trans>}
          description={<Trans>Choose a city project in the project list to edit it.</Trans>}
          action={
            <Button variant="primary" onClick={() => navigateHash('/projectManage/bim')}>
              <Trans>Go to the project list</Trans>
            </Button>
          }
        />
      </div>
    )
  }

  const moduleTitle = i18n._(module.title)
  // The model-POI page: a click on a POI selects it, beside every POI it picks the building.
  const isModelPoi = module.id === 'model' && tab.id === 'poi'
  const onMapClick =
    tab.id === 'monomer' && module.id === 'model'
      ? (point: { x: number; y: number }) => void pickBuildingAt(engine, point)
      : module.id === 'location' && tab.id === 'anchor'
        ? // only while the anchor tab is picking (tileset-anchor-pick.ts)
          (point: { x: number; y: number }) => void pickTilesetAnchorAt(engine, point)
        : tab.id === 'library' && module.id === 'model'
          ? (point: { x: number; y: number }) => void placeLibraryModelAt(engine, point)
          : module.id === 'poi' || isModelPoi
            ? (point: { x: number; y: number }) =>
                void handleCityPoiClick(engine, point, {
                  // Monomer POI: a click beside every POI selects the building there.
                  ...(tab.id === 'monomerPoi' || isModelPoi
                    ? { onNoPoi: (at: { x: number; y: number }) => void pickBuildingAt(engine, at) }
                    : {}),
                })
            : undefined

  return (
    <CityProjectProvider store={store}>
      <div className="ts-city" data-testid="city-editor">
        <nav className="ts-city__sidebar" aria-label={t`City project`}>
          <ul className="ts-city__modules">
            {cityModules.map((item) => (
              <li key={item.id}>
                <a
                  className="ts-city__module"
                  href={`#${cityTabPath(item.id, item.defaultTabId)}`}
                  aria-current={item.id === module.id ? 'page' : undefined}
                >
                  <svg viewBox="0 0 24 24" aria-hidden="true">
                    <path d={item.iconPath} />
                  </svg>
                  <span>{i18n._(item.title)}</span>
                </a>
              </li>
            ))}
            <li>
              <a className="ts-city__module" href="#/projectManage/bim">
                <svg viewBox="0 0 24 24" aria-hidden="true">
                  <path d="M4 7h13l-3-3 M20 17H7l3 3" />
                </svg>
                <span>
                  <Trans>Switch project</Trans>
                </span>
              </a>
            </li>
          </ul>
        </nav>
        <SidePanel label={moduleTitle}>
          <div className="ts-city__panel">
            <h2 className="ts-city__panel-title">
              {project ? projectTexts(project).name : ''}
              <span className="ts-city__panel-module">{moduleTitle}</span>
            </h2>
            <Tabs
              label={t`${moduleTitle} tabs`}
              value={tab.id}
              onValueChange={(next) => navigateHash(cityTabPath(module.id, next))}
              items={module.tabs.map((item) => ({
                value: item.id,
                label: i18n._(item.title),
                content: (
                  <CityTabContent
                    tab={item}
                    loadState={loadState}
                    loadError={loadError}
                    onRetry={() => setRetryCount((count) => count + 1)}
                  />
                ),
              }))}
            />
          </div>
        </SidePanel>
        <div className="ts-city__stage" ref={stageRef}>
          <CityMap
            onMapClick={onMapClick}
            onMapPointerMove={
              module.id === 'poi' || isModelPoi ? (point) => hoverCityPoi(engine, point) : undefined
            }
          />
          <CityMapStatus store={store} />
          <CityMapControls />
          <CityStatusBar />
        </div>
      </div>
    </CityProjectProvider>
  )
}

function CityTabContent({
  tab,
  loadState,
  loadError,
  onRetry,
}: {
  tab: CityTab
  loadState: CityProjectState['loadState']
  loadError: string | null
  onRetry: () => void
}) {
  const { t, i18n } = useLingui()
  const canEdit = useCanEditCityProject()
  if (!tab.isBuilt) {
    const title = i18n._(tab.title)
    return (
      <p className="ts-city-tab__planned" data-testid="city-tab-planned">
        <Trans>“{title}” is planned and not available yet.</Trans>
      </p>
    )
  }
  // the template library does not depend on the scene: it is usable while the map loads
  if (tab.id === 'list') return <TemplateList isCompact projectId={currentProject.projectId} />
  if (loadState === 'failed') {
    return (
      <ErrorState
        title={<Trans>The project could not be loaded</Trans>}
        message={loadError ?? undefined}
        onRetry={onRetry}
      />
    )
  }
  if (loadState !== 'ready') return <Spinner label={t`Loading…`} />
  if (tab.id === 'oblique') return <ObliqueTab />
  if (tab.id === 'monomer') return <MonomerTab />
  if (tab.id === 'poi') return <ModelPoiTab />
  if (tab.id === 'library') return <ModelLibraryTab scene="city" canEdit={canEdit} />
  if (tab.id === 'animation') return <ModelAnimationTab scene="city" canEdit={canEdit} />
  if (tab.id === 'basemap') return <BasemapTab />
  if (tab.id === 'model') return <CityModelSettingTab />
  if (tab.id === 'personal') return <CityPersonalSettingTab />
  if (tab.id === 'other') return <CityOtherSettingTab />
  if (tab.id === 'manage') return <CityPoiManageTab />
  if (tab.id === 'inventory') return <CityPoiInventoryTab />
  if (tab.id === 'monomerPoi') return <CityMonomerPoiTab />
  if (tab.id === 'alarms') return <CityAlarmsTab />
  if (tab.id === 'area' && currentProject.projectId)
    return <DrawTab kind="area" projectId={currentProject.projectId} />
  if (tab.id === 'programming' && currentProject.projectId)
    return <DrawTab kind="path" projectId={currentProject.projectId} />
  if (tab.id === 'navigation') return <NavigationTab />
  if (tab.id === 'gps' && currentProject.projectId)
    return <GpsTab projectId={currentProject.projectId} />
  if (tab.id === 'fence') return <FenceTab />
  if (tab.id === 'anchor') return <AnchorTab />
  if (tab.id === 'tour' && currentProject.projectId)
    return <TourTab projectId={currentProject.projectId} />
  return null
}
