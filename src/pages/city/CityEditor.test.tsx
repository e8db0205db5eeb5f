import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import { Engine, EngineProvider } from '../../engine-bridge'
import { closeProject, currentProject } from '../../state/project'
import { UiRoot, uploadStore } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { CityEditor } from './CityEditorPage'
import { CityServicesProvider } from './city-services'
import { createCityProjectStore } from './city-project-store'
import { createMemoryCityServer } from './testing/memory-city-server'

let engine: Engine

beforeEach(() => {
  engine = new Engine()
  currentProject.projectId = 'project-1'
  currentProject.projectToken = 'token'
})

afterEach(() => {
  engine.dispose()
  closeProject()
  uploadStore.close()
  window.location.hash = ''
})

function renderEditor(path: string) {
  window.location.hash = `#${path}`
  const server = createMemoryCityServer('project-1')
  const store = createCityProjectStore()
  renderWithI18n(
    <UiRoot>
      <EngineProvider engine={engine}>
        <CityServicesProvider services={server.services}>
          <CityEditor store={store} />
        </CityServicesProvider>
      </EngineProvider>
    </UiRoot>,
  )
  return { server, store }
}

function zipFile(name: string, sizeBytes = 4096): File {
  return new File([new Uint8Array(sizeBytes)], name, { type: 'application/zip' })
}

describe('city editor frame', () => {
  it('shows the city sidebar with the current module marked and the model library tab', async () => {
    renderEditor('/home/model/library')
    const sidebar = screen.getByRole('navigation', { name: 'City project' })
    const links = within(sidebar).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual([
      'Map',
      'Model',
      'POI',
      'Path',
      'Location',
      'Style',
      'Template',
      'Visit',
      'Switch project',
    ])
    expect(within(sidebar).getByRole('link', { name: 'Model' }).getAttribute('aria-current')).toBe(
      'page',
    )
    expect(within(sidebar).getByRole('link', { name: 'Style' }).getAttribute('href')).toBe(
      '#/home/style/basemap',
    )
    expect(screen.getByRole('tab', { name: 'Model library' }).getAttribute('aria-selected')).toBe(
      'true',
    )
    // the model library (issue 21) is built: its list is shown, empty for a new project
    expect(await screen.findByText('No models yet')).toBeTruthy()
    // the project's name heads the panel once it has loaded
    expect(await screen.findByText('Harbour district')).toBeTruthy()
  })

  it('moves to another tab of the module through the tab strip', async () => {
    const user = userEvent.setup()
    renderEditor('/home/map/area')
    await user.click(screen.getByRole('tab', { name: 'Oblique photography' }))
    await waitFor(() => expect(window.location.hash).toBe('#/home/map/oblique'))
  })

  it('says so when no project is open', () => {
    closeProject()
    renderEditor('/home/map')
    expect(screen.getByText('No project is open')).toBeTruthy()
  })
})

describe('oblique photography tab', () => {
  it('uploads a tileset with byte progress and lists it as a two-layer tree', async () => {
    const user = userEvent.setup()
    const { server, store } = renderEditor('/home/map/oblique')
    expect(await screen.findByText('No oblique photography yet')).toBeTruthy()

    await user.upload(screen.getByTestId('oblique-upload-input'), zipFile('harbour.zip'))

    const tree = await screen.findByRole('tree', { name: 'Oblique photography' })
    const rows = within(tree).getAllByRole('treeitem')
    expect(rows.map((row) => [row.getAttribute('aria-level'), row.textContent])).toEqual([
      ['1', '▾harbour'],
      ['2', 'city'],
      ['2', 'building'],
    ])
    expect(server.progressSeen).toEqual([1024, 2048, 3072, 4096])
    expect(store.tilesets).toHaveLength(1)
    // the upload window reports the finished file
    expect(screen.getByText('uploaded (1/1)')).toBeTruthy()
    expect(screen.getByText('success')).toBeTruthy()
    expect(screen.getByTestId('oblique-details').textContent).toContain('harbour')
  })

  it('shows the server’s reason when an archive is refused, naming the candidate roots', async () => {
    const user = userEvent.setup()
    const { server } = renderEditor('/home/map/oblique')
    await screen.findByText('No oblique photography yet')
    await user.upload(screen.getByTestId('oblique-upload-input'), zipFile('ambiguous.zip'))
    const refusal = await screen.findByTestId('oblique-upload-refusal')
    expect(refusal.textContent).toContain('ambiguous.zip was refused:')
    expect(refusal.textContent).toContain('tilesetA.json, tilesetB.json')
    expect(server.tilesets).toHaveLength(0)
    expect(screen.getByText('failure')).toBeTruthy()
  })

  it('refuses a file that is not a zip or .3tz before sending anything', async () => {
    const user = userEvent.setup({ applyAccept: false })
    const { server } = renderEditor('/home/map/oblique')
    await screen.findByText('No oblique photography yet')
    await user.upload(screen.getByTestId('oblique-upload-input'), zipFile('model.osgb'))
    expect((await screen.findByTestId('oblique-upload-refusal')).textContent).toContain(
      'Only a 3D Tiles package (.zip or .3tz) can be uploaded: model.osgb',
    )
    expect(server.progressSeen).toEqual([])
  })

  it('renames, hides and deletes a tileset (after confirming)', async () => {
    const user = userEvent.setup()
    const { server } = renderEditor('/home/map/oblique')
    await screen.findByText('No oblique photography yet')
    await user.upload(screen.getByTestId('oblique-upload-input'), zipFile('harbour.zip'))
    const details = await screen.findByTestId('oblique-details')

    await user.click(within(details).getByRole('button', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename oblique photography' })
    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    await user.clear(name)
    await user.type(name, 'Old town{Enter}')
    await waitFor(() => expect(server.tilesets[0]?.name).toBe('Old town'))
    expect(await screen.findByRole('treeitem', { name: /Old town/ })).toBeTruthy()

    await user.click(within(details).getByRole('button', { name: 'Hide' }))
    await waitFor(() => expect(server.tilesets[0]?.is_visible).toBe(false))
    expect(screen.getByRole('treeitem', { name: /Old town/ }).textContent).toContain('hidden')

    await user.click(within(details).getByRole('button', { name: 'Delete' }))
    const confirmation = await screen.findByRole('alertdialog')
    await user.click(within(confirmation).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(server.tilesets).toHaveLength(0))
    expect(await screen.findByText('No oblique photography yet')).toBeTruthy()
  })

  it('adds a named tileset without content (obliquephotograph/add), then uploads into it', async () => {
    const user = userEvent.setup()
    const { server } = renderEditor('/home/map/oblique')
    await screen.findByText('No oblique photography yet')

    await user.click(screen.getByRole('button', { name: 'New oblique photography' }))
    const dialog = await screen.findByRole('dialog', { name: 'New oblique photography' })
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'North pier{Enter}')
    await waitFor(() =>
      expect(server.tilesets.map((tileset) => tileset.name)).toEqual(['North pier']),
    )
    const row = await screen.findByRole('treeitem', { name: /North pier/ })
    expect(row.textContent).toContain('no content yet')
    const details = await screen.findByTestId('oblique-details')
    expect(within(details).getByTestId('oblique-no-content')).toBeTruthy()
    // nothing to fly to yet
    expect(within(details).queryByRole('button', { name: 'Fly to' })).toBeNull()

    // the content arrives through uploadTiltModel with the record's id: same record, same name
    await user.upload(within(details).getByTestId('oblique-update-input'), zipFile('pier.zip'))
    await waitFor(() => expect(server.tilesets[0]?.root_url).not.toBeNull())
    expect(server.tilesets).toHaveLength(1)
    expect(server.tilesets[0]?.name).toBe('North pier')
    const filled = await screen.findByRole('treeitem', { name: /North pier/ })
    await waitFor(() => expect(filled.textContent).not.toContain('no content yet'))
    expect(within(details).getByRole('button', { name: 'Fly to' })).toBeTruthy()
  })

  it('saves a placement for a tileset without georeference', async () => {
    const user = userEvent.setup()
    const { server } = renderEditor('/home/map/oblique')
    await screen.findByText('No oblique photography yet')
    await user.upload(screen.getByTestId('oblique-upload-input'), zipFile('local.zip'))
    const details = await screen.findByTestId('oblique-details')
    await user.click(within(details).getByRole('button', { name: 'Placement' }))
    const dialog = await screen.findByRole('dialog', { name: 'Placement of local' })
    const heading = within(dialog).getByRole('spinbutton', { name: 'Heading' })
    await user.clear(heading)
    await user.type(heading, '45{Enter}')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(server.tilesets[0]?.placement).toEqual({
        lng: 121.6,
        lat: 31.2,
        height_offset: 0,
        heading: 45,
      }),
    )
  })
})

describe('basemap setting tab', () => {
  it('refuses an address that is not http(s) and saves a valid online style', async () => {
    const user = userEvent.setup()
    const { server } = renderEditor('/home/style/basemap')
    const online = await screen.findByRole('radio', { name: 'Online style address' })
    expect((screen.getByRole('radio', { name: /Offline map/ }) as HTMLInputElement).checked).toBe(
      true,
    )
    await user.click(online)
    const address = screen.getByRole('textbox', { name: 'Style address' })
    await user.type(address, 'ftp://maps.example.com/style.json')
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    expect(screen.getByText('Enter an http:// or https:// address.')).toBeTruthy()
    expect(server.basemap.setting.kind).toBe('offline')

    await user.clear(address)
    await user.type(address, 'http://127.0.0.1:9/style.json')
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() =>
      expect(server.basemap.setting).toEqual({
        kind: 'online',
        style_url: 'http://127.0.0.1:9/style.json',
        pmtiles_id: null,
      }),
    )

    await act(async () => {
      await user.click(screen.getByRole('radio', { name: /Offline map/ }))
    })
    await waitFor(() => expect(server.basemap.setting.kind).toBe('offline'))
  })

  it('says why the server refused a style address, in the user’s words', async () => {
    const user = userEvent.setup()
    const { server } = renderEditor('/home/style/basemap')
    // the server's map proxy refuses hosts off its allow-list (server/modules/map-proxy)
    server.services.saveBasemap = async () => {
      throw new ApiError({
        reason: 'server',
        envelope: {
          code: '1003',
          message: "The map server tiles.example.org is not on this server's list …",
          datum: { reason: 'host' },
        },
        httpStatus: 403,
        fallbackMessage: '',
      })
    }
    await user.click(await screen.findByRole('radio', { name: 'Online style address' }))
    await user.type(
      screen.getByRole('textbox', { name: 'Style address' }),
      'https://tiles.example.org/style.json',
    )
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    expect(
      await screen.findAllByText(
        'This server does not allow maps from tiles.example.org. Ask an administrator to add it to the map host list (MAP_PROXY_HOSTS).',
      ),
    ).not.toHaveLength(0)
    expect(server.basemap.setting.kind).toBe('offline')
  })
})
