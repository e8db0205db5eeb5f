import { EngineProvider, type Engine } from '../../../engine-bridge'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { CityEditor } from '../CityEditorPage'
import { CityServicesProvider } from '../city-services'
import { createCityProjectStore } from '../city-project-store'
import { createMemoryCityServer } from './memory-city-server'

export type MemoryCityServer = ReturnType<typeof createMemoryCityServer>

/** A new array each time: the snapshot store keeps (and proxies) what it is given. */
export const triangle = (): [number, number][] => [
  [126.97, 37.56],
  [126.98, 37.56],
  [126.98, 37.57],
]

/**
 * The city editor of 'project-1' at `path` on `engine`, over an in-memory server holding an area
 * 'Yard' and a path 'Patrol' (the drawing and location tabs' tests start from them);
 * `canEdit` false: the user may only look at the project; `prepare` adds more to the server first.
 */
export async function renderCityEditorAt(
  engine: Engine,
  path: string,
  options: { canEdit?: boolean; prepare?: (server: MemoryCityServer) => void } = {},
): Promise<MemoryCityServer> {
  const server = createMemoryCityServer('project-1')
  options.prepare?.(server)
  if (options.canEdit === false) {
    const findProjectInfo = server.services.findProjectInfo
    server.services.findProjectInfo = async (id) => {
      const project = await findProjectInfo(id)
      return {
        ...project,
        permissions: { ...project.permissions!, canEdit: false, canDelete: false },
      }
    }
  }
  await server.services.addAreaDraw({
    project_id: 'project-1',
    kind: 'area',
    name: 'Yard',
    type: 4,
    points: triangle(),
  })
  await server.services.addAreaDraw({
    project_id: 'project-1',
    kind: 'path',
    name: 'Patrol',
    type: 3,
    points: triangle().slice(0, 2),
  })
  window.location.hash = `#${path}`
  renderWithI18n(
    <UiRoot>
      <EngineProvider engine={engine}>
        <CityServicesProvider services={server.services}>
          <CityEditor store={createCityProjectStore()} />
        </CityServicesProvider>
      </EngineProvider>
    </UiRoot>,
  )
  return server
}

/** A tileset 'Campus' without georeference, for the anchor point set tab to place. */
export function withCampusTileset(server: MemoryCityServer): void {
  server.tilesets.push({
    id: 'tileset-1',
    project_id: 'project-1',
    name: 'Campus',
    root_url: '/tiles/tileset.json',
    is_visible: true,
    placement: null,
    is_georeferenced: false,
  } as (typeof server.tilesets)[number])
}
