import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { UploadJpgDatum } from '../../../contract/files'
import type { CreateProjectBody, UpdateProjectBody } from '../../../contract/project'
import type { Envelope } from '../../../contract/envelope'
import type { GeoSearchResult, RegionOption } from '../../api/geo'
import type { Project } from '../../api/project'
import { ApiError } from '../../api/client'
import { ToastHost, toast } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { ProjectFormDialog, type ProjectFormServices } from './ProjectFormDialog'

afterEach(() => {
  act(() => toast.dismissAll())
})

const wuhan: GeoSearchResult = {
  id: 'r4201',
  kind: 'region',
  name: '武汉市',
  context: '湖北省, China',
  address: 'China 湖北省 武汉市',
  location: { lat: 30.58003, lng: 114.27002 },
  countryCode: 'CN',
  precision: 'exact',
  regionCode: '4201',
}

const savedProject: Project = {
  id: 'p-1',
  kind: 'city',
  name: 'Riverside',
  area_id: null,
  area_name: null,
  detailedaddress: 'Old address',
  use_shadow_editor_render: false,
  prewiewpath: '/web/files/c.png',
  prewiewpath_uuid: 'cover-1',
  prewiewpath_thumb: '/web/files/thumbs/c.png',
  description: 'Before',
  gis_width: 600,
  gis_height: 800,
  tile_radius: 0.5,
  title_level: 15,
  tile_coordinates: null,
  project_center: { lng: 114.3, lat: 30.6 },
  shell_json_path: null,
  owner_id: 'u',
  owner_name: 'demo',
  is_paid: false,
  is_case: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
}

const provinces: RegionOption[] = [{ codeid: '42', name: '湖北省', level: 1, children: true }]

/** Services that record what the form sends, answering like the server would. */
function fakeServices(options: { failWith?: Envelope } = {}) {
  const created: CreateProjectBody[] = []
  const updated: UpdateProjectBody[] = []
  const uploads: Array<{ name: string; projectId: string | undefined; hasThumbnail: boolean }> = []
  const answer = (body: Partial<Project>): Project => ({ ...savedProject, ...body }) as Project
  const services: ProjectFormServices = {
    async addProject(body) {
      if (options.failWith) throw serverError(options.failWith)
      created.push(body)
      return answer({ id: 'p-new', ...(body as Partial<Project>) })
    },
    async updateProject(body) {
      if (options.failWith) throw serverError(options.failWith)
      updated.push(body)
      return answer(body as Partial<Project>)
    },
    async uploadProjectCover(file, thumbnail, projectId) {
      uploads.push({ name: file.name, projectId, hasThumbnail: thumbnail !== null })
      return { uuid: 'cover-new' } as UploadJpgDatum
    },
    createCoverThumbnail: async () => new Blob(['thumb'], { type: 'image/jpeg' }),
    mapPicker: {
      search: async () => [wuhan],
      reverse: async (location) => ({
        location,
        address: 'Picked by click',
        countryCode: 'CN',
        countryName: 'China',
        nearestPlace: null,
      }),
    },
    loadRegionChildren: async (codeid) => (codeid === '0' ? provinces : []),
  }
  return { services, created, updated, uploads }
}

function serverError(envelope: Envelope) {
  return new ApiError({
    reason: 'server',
    envelope,
    httpStatus: 400,
    fallbackMessage: envelope.message,
  })
}

/** The answers the server gives, as ids the console words in the user's language. */
const foreignProjectAnswer: Envelope = {
  code: '1003',
  message: 'This project belongs to someone else.',
  messageId: 'project.foreign',
  datum: null,
}
const nameTooLongAnswer: Envelope = {
  code: '1000',
  message: 'name: At most 50 characters',
  messageId: 'validation.invalidFields',
  params: { fields: 'name' },
  datum: {
    details: [
      {
        field: 'name',
        message: 'At most 50 characters',
        messageId: 'validation.tooLong',
        params: { maximum: 50 },
      },
    ],
  },
}

function renderForm(props: {
  mode: 'create' | 'edit'
  project?: Project | null
  services: ProjectFormServices
}) {
  const saved: Project[] = []
  let isOpen = true
  renderWithI18n(
    <>
      <ToastHost />
      <ProjectFormDialog
        isOpen
        onOpenChange={(open) => {
          isOpen = open
        }}
        mode={props.mode}
        kind="city"
        project={props.project ?? null}
        onSaved={(project) => saved.push(project)}
        services={props.services}
      />
    </>,
  )
  return { saved, isOpen: () => isOpen, user: userEvent.setup() }
}

const toastTexts = () => [...document.querySelectorAll('.ts-toast')].map((node) => node.textContent)

async function chooseCover(user: ReturnType<typeof userEvent.setup>, bytes = 10) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!
  await user.upload(input, new File([new Uint8Array(bytes)], 'cover.png', { type: 'image/png' }))
}

describe('create/edit project popup', () => {
  it('creates: asks for the form, then for a map address, then saves with the picked point', async () => {
    const fake = fakeServices()
    const { user, saved } = renderForm({ mode: 'create', services: fake.services })
    expect(screen.getByRole('heading', { name: 'Create project' })).toBeTruthy()
    expect(screen.getByText('JPG or PNG under 2 MB; recommended size 2048 × 2048 px.')).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Please fill out the form.'))
    expect(fake.created).toEqual([])

    await user.type(screen.getByTestId('project-form-name'), 'Harbour')
    await user.type(screen.getByTestId('project-form-address'), 'Typed address')
    await user.type(screen.getByLabelText(/Description/), 'Port twin')
    await chooseCover(user)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain('Please select an address on the map first.'),
    )

    await user.click(screen.getByTestId('project-form-pick'))
    // The picker (and MapLibre with it) loads on first open: allow for the import.
    const picker = await screen.findByRole(
      'dialog',
      { name: 'Pick an address on the map' },
      { timeout: 20_000 },
    )
    const ok = within(picker).getByRole('button', { name: 'OK' }) as HTMLButtonElement
    expect(ok.disabled).toBe(true)
    expect(within(picker).getByText(/Select an address/)).toBeTruthy()
    await user.type(within(picker).getByTestId('map-picker-search'), '武汉')
    await user.click(await within(picker).findByRole('button', { name: /武汉市/ }))
    expect(ok.disabled).toBe(false)
    await user.click(ok)
    await waitFor(() =>
      expect((screen.getByTestId('project-form-address') as HTMLInputElement).value).toBe(
        'China 湖北省 武汉市',
      ),
    )

    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Added successfully.'))
    expect(fake.uploads).toEqual([{ name: 'cover.png', projectId: undefined, hasThumbnail: true }])
    expect(fake.created).toEqual([
      {
        kind: 'city',
        name: 'Harbour',
        detailedaddress: 'China 湖北省 武汉市',
        description: 'Port twin',
        prewiewpath_uuid: 'cover-new',
        project_center: { lat: 30.58003, lng: 114.27002 },
        area_id: '',
      },
    ])
    expect(saved.map((project) => project.id)).toEqual(['p-new'])
  })

  it('edits: Modify keeps the saved cover and says so when it worked', async () => {
    const fake = fakeServices()
    const { user } = renderForm({ mode: 'edit', project: savedProject, services: fake.services })
    expect(screen.getByRole('heading', { name: 'Edit project' })).toBeTruthy()
    const name = screen.getByTestId('project-form-name') as HTMLInputElement
    expect(name.value).toBe('Riverside')
    await user.clear(name)
    await user.type(name, 'Riverside 2')
    await user.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Modified successfully.'))
    expect(fake.uploads).toEqual([])
    expect(fake.updated[0]).toMatchObject({
      id: 'p-1',
      name: 'Riverside 2',
      prewiewpath_uuid: 'cover-1',
      project_center: { lng: 114.3, lat: 30.6 },
    })
  })

  it('uploads a new cover for the edited project and reports a failed modify', async () => {
    const fake = fakeServices({ failWith: foreignProjectAnswer })
    const { user } = renderForm({ mode: 'edit', project: savedProject, services: fake.services })
    await chooseCover(user)
    await user.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain(
        'Failed to modify. This project belongs to someone else.',
      ),
    )
    expect(fake.uploads).toEqual([{ name: 'cover.png', projectId: 'p-1', hasThumbnail: true }])
  })

  it('refuses a cover over 2 MB in the browser', async () => {
    const fake = fakeServices()
    const { user } = renderForm({ mode: 'create', services: fake.services })
    await chooseCover(user, 2 * 1024 * 1024 + 1)
    await waitFor(() => expect(toastTexts().join()).toContain('Image size is over 2MB!'))
  })

  it('reports a failed add', async () => {
    const fake = fakeServices({ failWith: nameTooLongAnswer })
    const { user } = renderForm({ mode: 'create', services: fake.services })
    await user.type(screen.getByTestId('project-form-name'), 'X')
    await user.type(screen.getByTestId('project-form-address'), 'Y')
    await user.type(screen.getByLabelText(/Description/), 'Z')
    await chooseCover(user)
    await user.click(screen.getByTestId('project-form-pick'))
    // The picker (and MapLibre with it) loads on first open: allow for the import.
    const picker = await screen.findByRole(
      'dialog',
      { name: 'Pick an address on the map' },
      { timeout: 20_000 },
    )
    await user.type(within(picker).getByTestId('map-picker-search'), 'wu')
    await user.click(await within(picker).findByRole('button', { name: /武汉市/ }))
    await user.click(within(picker).getByRole('button', { name: 'OK' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain('Failed to add. name: At most 50 characters'),
    )
  })
})
