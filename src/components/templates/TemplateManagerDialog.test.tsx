import { i18n } from '@lingui/core'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { messages as enMessages } from '../../i18n/locales/en/messages.po'
import { messages as koMessages } from '../../i18n/locales/ko/messages.po'
import { ConfirmHost, ToastHost, toast } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { CategoryFormDialog } from './CategoryManagerDialog'
import { TemplateManagerDialog } from './TemplateManagerDialog'
import type { TemplateKind } from './template-form'
import type { TemplateServices } from './template-services'
import { fakeTemplateServices, sampleCategoryTree } from './testing/fake-template-services'

afterEach(() => {
  act(() => toast.dismissAll())
})

type User = ReturnType<typeof userEvent.setup>

function renderManager(options: {
  services: TemplateServices
  templateId?: string | null
  kind?: TemplateKind
  projectId?: string | null
}) {
  const saved: string[] = []
  renderWithI18n(
    <>
      <ToastHost />
      <ConfirmHost />
      <TemplateManagerDialog
        isOpen
        onOpenChange={() => {}}
        templateId={options.templateId ?? null}
        kind={options.kind ?? 'simple'}
        projectId={options.projectId ?? null}
        onSaved={(id) => saved.push(id)}
        services={options.services}
      />
    </>,
  )
  return { saved, user: userEvent.setup() }
}

const toastTexts = () => [...document.querySelectorAll('.ts-toast')].map((node) => node.textContent)
const tab = (name: string) => screen.getByRole('tab', { name })
const isSelected = (name: string) => tab(name).getAttribute('aria-selected') === 'true'

async function chooseCategoryLevel(user: User, level: number, name: string) {
  const label = level === 1 ? 'Category level 1' : `Category level ${level}`
  await user.click(screen.getByRole('combobox', { name: label }))
  await user.click(await screen.findByRole('option', { name }))
}

async function fillBasics(user: User, name = 'Camera', code = 'CAM-1') {
  await user.type(screen.getByTestId('template-name'), name)
  await user.type(screen.getByTestId('template-code'), code)
}

async function pickIcon(user: User, fileName = 'camera.png') {
  const input = screen
    .getByTestId('template-icon')
    .querySelector<HTMLInputElement>('input[type="file"]')!
  await user.upload(input, new File([new Uint8Array(10)], fileName, { type: 'image/png' }))
}

describe('template manager popup: tab rules (SPEC §4)', () => {
  it('keeps a new template on basic until its first save, then unlocks the tabs and moves to labels', async () => {
    const fake = fakeTemplateServices()
    const { user, saved } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')

    expect(isSelected('Basic')).toBe(true)
    for (const name of ['Static attributes', 'Model labels', 'Events']) {
      expect(tab(name).hasAttribute('disabled')).toBe(true)
      await user.click(tab(name))
      expect(isSelected('Basic')).toBe(true)
    }
    // the keyboard cannot reach a locked tab either
    tab('Basic').focus()
    await user.keyboard('{ArrowRight}')
    expect(isSelected('Basic')).toBe(true)

    await fillBasics(user)
    await chooseCategoryLevel(user, 1, '2D')
    await chooseCategoryLevel(user, 2, 'Cameras')
    await pickIcon(user)
    await waitFor(() => expect(screen.getByText('Icon uploaded.')).toBeTruthy())
    await user.click(screen.getByRole('button', { name: 'Save' }))

    await waitFor(() => expect(isSelected('Model labels')).toBe(true))
    expect(toastTexts().join()).toContain('Added successfully.')
    expect(saved).toHaveLength(1)
    expect(fake.callsOf('createTemplate')[0]?.args[0]).toMatchObject({
      name: 'Camera',
      poicategory_code: 'CAM-1',
      piddes: '1,10',
      iconpath: '/web/files/camera.png',
      bgtype: '1',
    })
    for (const name of ['Static attributes', 'Model labels', 'Events'])
      expect(tab(name).hasAttribute('disabled')).toBe(false)
    await user.click(tab('Static attributes'))
    expect(isSelected('Static attributes')).toBe(true)
  })

  it('edits an existing template in place: every tab open, Modify updates it', async () => {
    const fake = fakeTemplateServices()
    const { id } = await fake.services.createTemplate({
      name: 'Sensor',
      poicategory_code: 'SEN-1',
      piddes: '1,11',
      iconpath: '/web/files/sensor.png',
    })
    const { user } = renderManager({ services: fake.services, templateId: id })
    await screen.findByTestId('template-manager')
    expect(screen.getByRole('heading', { name: 'Edit template' })).toBeTruthy()
    expect(tab('Events').hasAttribute('disabled')).toBe(false)
    expect((screen.getByTestId('template-name') as HTMLInputElement).value).toBe('Sensor')

    await user.clear(screen.getByTestId('template-name'))
    await user.type(screen.getByTestId('template-name'), 'Smoke sensor')
    await user.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Modified successfully.'))
    expect(fake.callsOf('updateTemplate')[0]?.args[0]).toMatchObject({ id, name: 'Smoke sensor' })
    // editing in place does not jump away from the tab the user is on
    expect(isSelected('Basic')).toBe(true)
  })
})

describe('template manager popup: basic tab', () => {
  it('refuses to save without the basic attributes', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain('Please fill in the basic attributes.'),
    )
    expect(fake.callsOf('createTemplate')).toHaveLength(0)
    expect(screen.getByText('Choose an icon.')).toBeTruthy()
  })

  it('turns 3D for a category under root 2 and clears the icon on every category change', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await chooseCategoryLevel(user, 1, '2D')
    await chooseCategoryLevel(user, 2, 'Cameras')
    await pickIcon(user)
    await waitFor(() => expect(screen.getByText('Icon uploaded.')).toBeTruthy())
    expect(screen.getByTestId('template-type').textContent).toBe('2D')

    // another 2D category: still 2D, the icon is gone
    await chooseCategoryLevel(user, 2, 'Sensors')
    expect(screen.getByText('JPG or PNG under 2 MB.')).toBeTruthy()
    expect(screen.queryByText('Icon uploaded.')).toBeNull()

    await chooseCategoryLevel(user, 1, '3D')
    expect(screen.getByTestId('template-type').textContent).toBe('3D')
    expect(screen.queryByTestId('template-icon')).toBeNull()
    expect(screen.getByTestId('template-model')).toBeTruthy()
  })

  it('takes only a zip as the 3D model, then shows the preview the server rendered', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await chooseCategoryLevel(user, 1, '3D')
    const input = screen.getByTestId('template-zip-input') as HTMLInputElement
    // the input's accept list would let user-event drop the file silently: test what a drop does
    const upload = userEvent.setup({ applyAccept: false })

    await upload.upload(input, new File(['glb'], 'camera.glb', { type: 'model/gltf-binary' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Only zip can be uploaded.'))
    expect(fake.callsOf('upload3dZip')).toHaveLength(0)

    await upload.upload(input, new File(['zip'], 'camera.zip', { type: 'application/zip' }))
    const preview = (await screen.findByTestId('template-model-preview')) as HTMLImageElement
    expect(preview.getAttribute('src')).toBe('/web/templateModels/zip-1/preview.png')
    expect(toastTexts().join()).toContain('Model render prepared, format conversion succeeded.')

    await fillBasics(user, 'Extinguisher box', 'FIRE-1')
    await chooseCategoryLevel(user, 2, 'Fire')
    // choosing the category again clears the model too (SPEC §4 "The icon is cleared on change")
    expect(screen.queryByTestId('template-model-preview')).toBeNull()
  })

  it("shows the conversion's warnings in the user's language, from their catalogue ids", async () => {
    const fake = fakeTemplateServices({
      async upload3dZip() {
        return {
          uuid: 'zip-2',
          rootPath: '/web/templateModels/zip-2/',
          jpgName: 'zip-2.png',
          xmlName: 'zip-2.xml',
          sbmName: 'zip-2.sbm',
          sourceName: 'Duck.gltf',
          triangleCount: 12,
          sizeBytes: 3,
          warnings: [
            {
              messageId: 'convert.textureMissing',
              params: { name: 'DuckCM.png' },
              message: 'The texture DuckCM.png is missing; its material is left untextured.',
            },
          ],
        }
      },
    })
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await chooseCategoryLevel(user, 1, '3D')
    const input = screen.getByTestId('template-zip-input') as HTMLInputElement
    await user.upload(input, new File(['zip'], 'duck.zip', { type: 'application/zip' }))
    const warnings = await screen.findByTestId('template-model-warnings')
    expect(warnings.textContent).toBe(
      'The texture DuckCM.png is missing; its material is left untextured.',
    )
    // a language switch renders the same warning again, in Korean
    try {
      await act(async () => i18n.loadAndActivate({ locale: 'ko', messages: koMessages }))
      expect(screen.getByTestId('template-model-warnings').textContent).toBe(
        '텍스처 DuckCM.png이(가) 없어 해당 재질은 텍스처 없이 표시됩니다.',
      )
    } finally {
      await act(async () => i18n.loadAndActivate({ locale: 'en', messages: enMessages }))
    }
  })

  it('creates a multi-level template with its levels', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services, kind: 'multiLevel' })
    await screen.findByTestId('template-manager')
    expect(screen.getByText('Multi-level template', { exact: false })).toBeTruthy()
    await fillBasics(user, 'Building', 'BLD-1')
    await chooseCategoryLevel(user, 1, '2D')
    await user.type(screen.getByLabelText('Level 1'), 'Floor')
    await user.click(screen.getByRole('button', { name: 'Add level' }))
    await user.type(screen.getByLabelText('Level 2'), 'Room')

    // each level has its own static attributes, checked like a simple template's
    const roomAttributes = within(screen.getByTestId('level-2-attributes'))
    await user.type(roomAttributes.getByTestId('level-2-attribute-column'), 'area m2')
    await user.type(roomAttributes.getByTestId('level-2-attribute-des'), 'Area')
    await user.type(roomAttributes.getByTestId('level-2-attribute-example'), '40')
    await user.click(roomAttributes.getByRole('button', { name: 'Add attribute' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain(
        'The English name may hold only letters, digits and underscores.',
      ),
    )
    await user.clear(roomAttributes.getByTestId('level-2-attribute-column'))
    // Enter adds the attribute; it does not submit the template
    await user.type(roomAttributes.getByTestId('level-2-attribute-column'), 'area_m2{Enter}')
    expect(fake.callsOf('createMultiLevelTemplate')).toHaveLength(0)
    const table = await screen.findByTestId('level-2-attribute-table')
    expect(within(table).getByText('area_m2')).toBeTruthy()
    await user.type(roomAttributes.getByTestId('level-2-attribute-column'), 'area_m2')
    await user.type(roomAttributes.getByTestId('level-2-attribute-des'), 'Again')
    await user.type(roomAttributes.getByTestId('level-2-attribute-example'), '1{Enter}')
    await waitFor(() =>
      expect(toastTexts().join()).toContain('There is already an attribute named area_m2.'),
    )
    // level 1 keeps none; a level's attribute can be removed again before saving
    expect(screen.queryByTestId('level-1-attribute-table')).toBeNull()
    await user.type(screen.getByTestId('level-1-attribute-column'), 'owner')
    await user.type(screen.getByTestId('level-1-attribute-des'), 'Owner')
    await user.type(screen.getByTestId('level-1-attribute-example'), 'Acme{Enter}')
    const floorTable = await screen.findByTestId('level-1-attribute-table')
    await user.click(within(floorTable).getByRole('button', { name: 'Delete Owner' }))
    expect(screen.queryByTestId('level-1-attribute-table')).toBeNull()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(isSelected('Model labels')).toBe(true))
    expect(fake.callsOf('createMultiLevelTemplate')[0]?.args[0]).toMatchObject({
      piddes: '1',
      projectInfoAllCustoms: [
        { level_name: 'Floor', customs: [] },
        {
          level_name: 'Room',
          customs: [{ property_column: 'area_m2', column_des: 'Area', column_example: '40' }],
        },
      ],
    })
  })
})

describe('template manager popup: static attributes and labels', () => {
  async function savedTemplate(user: User) {
    await fillBasics(user)
    await chooseCategoryLevel(user, 1, '2D')
    await pickIcon(user)
    await waitFor(() => expect(screen.getByText('Icon uploaded.')).toBeTruthy())
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(isSelected('Model labels')).toBe(true))
  }

  it('checks an attribute before adding it and lists it after', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services, projectId: 'p-1' })
    await screen.findByTestId('template-manager')
    await savedTemplate(user)
    await user.click(tab('Static attributes'))

    await user.type(screen.getByTestId('attribute-column'), 'brand')
    await user.click(screen.getByRole('button', { name: 'Add attribute' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain('Please fill in everything completely.'),
    )

    await user.clear(screen.getByTestId('attribute-column'))
    await user.type(screen.getByTestId('attribute-column'), 'brand name')
    await user.type(screen.getByTestId('attribute-des'), 'Brand')
    await user.type(screen.getByTestId('attribute-example'), 'Acme')
    await user.click(screen.getByRole('button', { name: 'Add attribute' }))
    await waitFor(() =>
      expect(toastTexts().join()).toContain(
        'The English name may hold only letters, digits and underscores.',
      ),
    )
    expect(fake.callsOf('addAttribute')).toHaveLength(0)

    await user.clear(screen.getByTestId('attribute-column'))
    await user.type(screen.getByTestId('attribute-column'), 'brand{Enter}')
    await waitFor(() => expect(toastTexts().join()).toContain('Static attribute added.'))
    const table = await screen.findByTestId('attribute-table')
    expect(within(table).getByText('Acme')).toBeTruthy()

    await user.click(screen.getByRole('button', { name: "Sync to this project's POIs" }))
    await waitFor(() => expect(fake.callsOf('syncAttributes')).toHaveLength(1))
    expect(fake.callsOf('syncAttributes')[0]?.args[1]).toEqual({ projectId: 'p-1' })
  })

  it('asks before deleting an attribute', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await savedTemplate(user)
    await user.click(tab('Static attributes'))
    await user.type(screen.getByTestId('attribute-column'), 'brand')
    await user.type(screen.getByTestId('attribute-des'), 'Brand')
    await user.type(screen.getByTestId('attribute-example'), 'Acme{Enter}')
    await screen.findByTestId('attribute-table')

    await user.click(screen.getByRole('button', { name: 'Delete Brand' }))
    const question = await screen.findByRole('alertdialog')
    expect(question.textContent).toContain('Delete “Brand”?')
    await user.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(fake.callsOf('deleteAttribute')).toHaveLength(0)
  })

  it('gives each event kind its own image, saved with the events', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await savedTemplate(user)
    await user.click(tab('Events'))
    const alarm = await screen.findByTestId('event-image-alarm')
    const alarmInput = alarm.querySelector<HTMLInputElement>('input[type="file"]')!
    // a kind that is off takes no image
    expect(alarmInput.disabled).toBe(true)
    await user.click(screen.getByRole('checkbox', { name: 'Alarm' }))
    await user.click(screen.getByRole('checkbox', { name: 'Fault' }))
    await user.upload(
      alarmInput,
      new File([new Uint8Array(10)], 'alarm.png', { type: 'image/png' }),
    )
    await waitFor(() =>
      expect(within(alarm).getByText('Shown while the event is active.')).toBeTruthy(),
    )
    const fault = screen.getByTestId('event-image-fault')
    await user.upload(
      fault.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File([new Uint8Array(10)], 'fault.png', { type: 'image/png' }),
    )
    await user.click(
      await within(fault).findByRole('button', { name: 'Remove the image of Fault' }),
    )
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(fake.callsOf('setEvents')).toHaveLength(1))
    const saved = fake.callsOf('setEvents')[0]!.args[1] as { kind: string; event_image: string }[]
    expect(Object.fromEntries(saved.map((event) => [event.kind, event.event_image]))).toEqual({
      link: '',
      alarm: '/web/files/alarm.png',
      offline: '',
      fault: '',
    })
  })

  it('adds labels to the current list', async () => {
    const fake = fakeTemplateServices()
    const { user } = renderManager({ services: fake.services })
    await screen.findByTestId('template-manager')
    await savedTemplate(user)
    await user.click(screen.getByRole('button', { name: 'Add label' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Please enter the label.'))
    await user.type(screen.getByTestId('label-key'), 'outdoor{Enter}')
    const current = await screen.findByTestId('label-current')
    expect(within(current).getByText('outdoor')).toBeTruthy()
  })
})

describe('create-category popup (SPEC §5)', () => {
  it('asks for the category name and adds under the chosen parent', async () => {
    const fake = fakeTemplateServices()
    const added: unknown[] = []
    const parent = sampleCategoryTree()[0]!
    renderWithI18n(
      <>
        <ToastHost />
        <CategoryFormDialog
          form={{ mode: 'add', parent, isShared: false }}
          services={fake.services}
          onClose={() => {}}
          onSaved={(category) => {
            added.push(category)
          }}
        />
      </>,
    )
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Please fill in the category name.'))
    expect(fake.callsOf('addCategory')).toHaveLength(0)
    await user.type(screen.getByTestId('category-name'), 'Doors{Enter}')
    await waitFor(() => expect(added).toHaveLength(1))
    expect(fake.callsOf('addCategory')[0]?.args).toEqual([
      { category_name: 'Doors', pid: '1' },
      false,
    ])
    expect(toastTexts().join()).toContain('Category added.')
  })
})
