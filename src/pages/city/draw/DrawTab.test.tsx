import { i18n } from '@lingui/core'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DrawLayerState } from '../../../../engine/api'
import { ApiError } from '../../../api/client'
import { Engine, sceneStore } from '../../../engine-bridge'
import { messages as enMessages } from '../../../i18n/locales/en/messages.po'
import { messages as koMessages } from '../../../i18n/locales/ko/messages.po'
import { messages as zhMessages } from '../../../i18n/locales/zh/messages.po'
import { closeProject, currentProject } from '../../../state/project'
import {
  type MemoryCityServer,
  renderCityEditorAt,
  triangle,
  withCampusTileset,
} from '../testing/render-city-editor'
import { drawStore } from './draw-store'

/**
 * The drawing forms of the city editor (issue 18, SPEC §2 area edit popup and path edit dialog,
 * §4 new or modify, §9 path display modes): a new shape saved with its colours, a saved area and
 * a saved path modified (name, description, colours with opacity, display mode), a refusal of the
 * server said and the form kept; and redo beside undo in the geometry control bar.
 */

let engine: Engine

/** The read-only hint as each language says it (the catalogues' entries). */
const readOnlyHint = {
  en: 'You can view this project but not change it, so its editing tools are hidden.',
  ko: '이 프로젝트는 볼 수만 있고 바꿀 수 없어 편집 도구가 숨겨져 있습니다.',
  zh: '您只能查看此项目而不能更改，因此编辑工具已隐藏。',
}

const speak = (locale: 'ko' | 'zh' | 'en') =>
  act(async () =>
    i18n.loadAndActivate({
      locale,
      messages: { ko: koMessages, zh: zhMessages, en: enMessages }[locale],
    }),
  )

/** The draw state of a city with nothing drawn or edited. */
const noDrawing: DrawLayerState = {
  activeType: null,
  pending: null,
  shapeCount: 0,
  visibleShapeCount: 0,
  isPicturePainting: false,
  editing: null,
}

beforeEach(() => {
  engine = new Engine()
  currentProject.projectId = 'project-1'
  currentProject.projectToken = 'token'
})

afterEach(() => {
  vi.restoreAllMocks()
  sceneStore.city = { ...sceneStore.city, draw: noDrawing }
  engine.dispose()
  closeProject()
  window.location.hash = ''
})

/** The city editor at `path` (see renderCityEditorAt). */
const renderAt = (path: string, canEdit = true, prepare?: (server: MemoryCityServer) => void) =>
  renderCityEditorAt(engine, path, { canEdit, prepare })

/** The engine's draw state as the snapshot would publish it. */
function publishDraw(draw: Partial<DrawLayerState>) {
  sceneStore.city = { ...sceneStore.city, draw: { ...noDrawing, ...draw } }
}

/** Picks a colour and an opacity in the colour field named `name` of `form`. */
async function chooseColor(form: HTMLElement, name: string, hex: string, opacityKeys: string) {
  const field = within(form).getByRole('group', { name })
  fireEvent.input(within(field).getByLabelText('Colour'), { target: { value: hex } })
  within(field).getByRole('slider', { name: 'Opacity' }).focus()
  await userEvent.keyboard(opacityKeys)
}

describe('drawing forms', () => {
  it('saves a new shape with its name, description and colours', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/map/area')
    await screen.findByText('Yard')
    publishDraw({
      activeType: 4,
      pending: {
        type: 4,
        points: triangle(),
        areaSquareMeters: 1000,
        lengthMeters: 300,
        issue: null,
      },
    })
    const form = await screen.findByRole('form', { name: 'New drawing' })
    // The owner is not told the project is read-only.
    expect(screen.queryByTestId('city-read-only')).toBeNull()
    const save = within(form).getByRole('button', { name: 'Save' })
    // Nothing to save without a name.
    expect(save.hasAttribute('disabled')).toBe(true)
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Lawn')
    await user.type(within(form).getByRole('textbox', { name: /^Description/ }), 'north side')
    // White at half opacity, blue and opaque until chosen.
    expect(within(form).getByText('rgba(255,255,255,0.5)')).toBeTruthy()
    await chooseColor(form, 'Fill colour', '#00ff00', '{Home}{ArrowRight}{ArrowRight}')
    await chooseColor(form, 'Outline colour', '#ff0000', '{End}')
    // A polygon has no display mode: that is for lines.
    expect(within(form).queryByText('Display mode')).toBeNull()
    await user.click(save)

    await waitFor(() =>
      expect(server.services.findAreaDraws('project-1', 'area')).resolves.toContainEqual(
        expect.objectContaining({
          name: 'Lawn',
          description: 'north side',
          style: expect.objectContaining({ fill_color: '#00ff0005', outline_color: '#ff0000ff' }),
        }),
      ),
    )
    expect(await screen.findByText('Lawn')).toBeTruthy()
  })

  it('modifies a saved area: name, description and both colours, in place', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/map/area')
    await user.click(await screen.findByRole('button', { name: 'Modify Yard' }))
    const form = screen.getByRole('form', { name: 'Modify Yard' })
    const name = within(form).getByRole('textbox', { name: /^Name/ })
    expect((name as HTMLInputElement).value).toBe('Yard')
    // The saved colours are shown: white at half opacity, blue.
    const fill = within(form).getByRole('group', { name: 'Fill colour' })
    expect(within(fill).getByText('rgba(255,255,255,0.5)')).toBeTruthy()
    const outline = within(form).getByRole('group', { name: 'Outline colour' })
    expect(within(outline).getByText('rgba(30,136,229,1)')).toBeTruthy()

    await user.clear(name)
    await user.type(name, 'Front yard')
    await user.type(within(form).getByRole('textbox', { name: /^Description/ }), 'gravel')
    await chooseColor(form, 'Fill colour', '#ffbe37', '{ArrowRight}')
    await chooseColor(form, 'Outline colour', '#000810', '{ArrowLeft}')
    await user.click(within(form).getByRole('button', { name: 'Modify' }))

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Modify Yard' })).toBeNull())
    const [saved] = await server.services.findAreaDraws('project-1', 'area')
    expect(saved).toMatchObject({
      name: 'Front yard',
      description: 'gravel',
      // 51 % is alpha 0.51, the byte 0x82; 99 % is 0xfc.
      style: { fill_color: '#ffbe3782', outline_color: '#000810fc', display_mode: 1 },
    })
    expect(within(screen.getByTestId('draw-list')).getByText('Front yard')).toBeTruthy()
  })

  it('modifies a saved path: its colour and display mode', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/path/programming')
    await user.click(await screen.findByRole('button', { name: 'Modify Patrol' }))
    const form = screen.getByRole('form', { name: 'Modify Patrol' })
    // A path has one colour, the path's, and no fill.
    expect(within(form).queryByRole('group', { name: 'Fill colour' })).toBeNull()
    await chooseColor(form, 'Path colour', '#ff0000', '{End}')
    await user.click(within(form).getByRole('combobox', { name: 'Display mode' }))
    await user.click(await screen.findByRole('option', { name: 'Path only' }))
    await user.click(within(form).getByRole('button', { name: 'Modify' }))

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Modify Patrol' })).toBeNull())
    const [saved] = await server.services.findAreaDraws('project-1', 'path')
    expect(saved!.style).toMatchObject({ outline_color: '#ff0000ff', display_mode: 3 })
  })

  it('says why the server refused a change and keeps the form', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/map/area')
    // The answer /areadraw/update gives a display mode out of range (server test of draw.ts).
    const message =
      'A display mode is 0 (hide all), 1 (node and path), 2 (node only) or 3 (path only).'
    vi.spyOn(server.services, 'updateAreaDraw').mockRejectedValue(
      new ApiError({
        reason: 'server',
        envelope: {
          code: '1000',
          message: `style.display_mode: ${message}`,
          messageId: 'validation.invalidFields',
          params: { fields: 'style.display_mode' },
          datum: {
            details: [
              { field: 'style.display_mode', message, messageId: 'draw.displayMode', params: {} },
            ],
          },
        },
        httpStatus: 400,
        fallbackMessage: '',
      }),
    )
    await user.click(await screen.findByRole('button', { name: 'Modify Yard' }))
    const form = screen.getByRole('form', { name: 'Modify Yard' })
    await user.click(within(form).getByRole('button', { name: 'Modify' }))
    expect(await screen.findByText(`style.display_mode: ${message}`)).toBeTruthy()
    expect(screen.getByRole('form', { name: 'Modify Yard' })).toBeTruthy()
    const [kept] = await server.services.findAreaDraws('project-1', 'area')
    expect(kept!.name).toBe('Yard')
  })
})

describe('a read-only project', () => {
  it('says why there are no drawing tools, and lists the saved paths', async () => {
    await renderAt('/home/path/programming', false)
    expect(
      await screen.findByText(
        'You can view this project but not change it, so its editing tools are hidden.',
      ),
    ).toBeTruthy()
    expect(await screen.findByText('Patrol')).toBeTruthy()
    expect(screen.queryByRole('group', { name: 'Draw type' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Modify Patrol' })).toBeNull()
  })

  // The location and tour tabs say it too, in the user's language (each tab in one of ko, zh, en).
  it.each([
    // `tools`: what an editor would see there (fence switches; the new viewpoint, new
    // positioned object and new anchor forms)
    {
      tab: 'fence',
      path: '/home/location/fence',
      locale: 'ko',
      shows: 'Yard',
      tools: '[aria-pressed]',
    },
    { tab: 'tour', path: '/home/visit/tour', locale: 'zh', shows: null, tools: 'form' },
    { tab: 'gps', path: '/home/location/gps', locale: 'en', shows: null, tools: 'form' },
    { tab: 'anchor', path: '/home/location/anchor', locale: 'ko', shows: 'Campus', tools: 'form' },
  ] as const)('says so in the $tab tab ($locale) and offers no tools there', async (row) => {
    await speak(row.locale)
    await renderAt(row.path, false, withCampusTileset)
    const tab = await screen.findByTestId(`city-${row.tab}-tab`)
    const hint = await within(tab).findByTestId('city-read-only')
    expect(hint.textContent).toBe(readOnlyHint[row.locale])
    if (row.shows) await within(tab).findByText(row.shows)
    expect(tab.querySelectorAll(row.tools).length).toBe(0)
    expect(within(tab).queryAllByRole('textbox')).toEqual([])
  })
})

describe('geometry control bar', () => {
  it('offers redo beside undo once a change was undone', async () => {
    const user = userEvent.setup()
    await renderAt('/home/map/area')
    await screen.findByText('Yard')
    const yard = drawStore.drawings.find((drawing) => drawing.name === 'Yard')
    const editing = {
      id: yard!.id,
      type: 4 as const,
      tool: 'edit' as const,
      points: triangle(),
      areaSquareMeters: 1000,
      lengthMeters: 300,
      issue: null,
      rotationDegrees: 0,
    }
    publishDraw({ editing: { ...editing, undoDepth: 1, redoDepth: 0 } })
    const bar = await screen.findByTestId('draw-geometry-bar')
    const redo = within(bar).getByRole('button', { name: 'Redo' })
    expect(redo.hasAttribute('disabled')).toBe(true)
    expect(within(bar).getByRole('button', { name: 'Undo' }).hasAttribute('disabled')).toBe(false)

    const run = vi.spyOn(engine, 'run')
    publishDraw({ editing: { ...editing, undoDepth: 0, redoDepth: 1 } })
    const redoNow = () =>
      within(screen.getByTestId('draw-geometry-bar')).getByRole('button', { name: 'Redo' })
    await waitFor(() => expect(redoNow().hasAttribute('disabled')).toBe(false))
    await user.click(redoNow())
    expect(run).toHaveBeenCalledWith('draw.editRedo')
  })
})
