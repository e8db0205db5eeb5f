import { i18n } from '@lingui/core'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { messages as enMessages } from '../../i18n/locales/en/messages.po'
import { messages as koMessages } from '../../i18n/locales/ko/messages.po'
import { messages as zhMessages } from '../../i18n/locales/zh/messages.po'
import { createPoiStore } from '../../state/pois'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiTable } from '../../pages/pois/PoiTable'
import {
  createFakePoiServer,
  poiRecord,
  sceneTemplate,
} from '../../pages/pois/testing/fake-poi-server'
import { TemplateList } from './TemplateList'
import { categoryNode, fakeTemplateServices } from './testing/fake-template-services'

/**
 * Seeded library names in the user's language (the server's `name_key`), names users typed as
 * they are: the template list and the POI table's template filter, in ko, zh and en.
 */

afterEach(async () => {
  await act(async () => i18n.loadAndActivate({ locale: 'en', messages: enMessages }))
})

const speak = (locale: 'ko' | 'zh' | 'en') =>
  act(async () =>
    i18n.loadAndActivate({
      locale,
      messages: { ko: koMessages, zh: zhMessages, en: enMessages }[locale],
    }),
  )

function renderLibrary() {
  const fake = fakeTemplateServices()
  const seed = [
    { id: 'cam2d', name: 'Camera', name_key: 'library.template.camera2d', type: '2D' as const },
    { id: 'cam3d', name: 'Camera', name_key: 'library.template.camera3d', type: '3D' as const },
    // a user's own template that happens to carry the same name: shown as typed
    { id: 'mine', name: 'Camera', type: '2D' as const },
  ]
  for (const [index, fields] of seed.entries()) {
    fake.templates.set(fields.id, {
      ...fake.templates.get(fields.id),
      id: fields.id,
      name: fields.name,
      ...(fields.name_key ? { name_key: fields.name_key } : {}),
      type: fields.type,
      poicategory_code: `C${index}`,
    } as never)
  }
  renderWithI18n(<TemplateList services={fake.services} />)
}

const rowNames = () =>
  screen
    .getAllByTestId('template-row')
    .map((row) => within(row).getByRole('rowheader').textContent?.trim())

describe('seeded library names', () => {
  it('read in the user’s language, the two cameras apart; typed names stay as typed', async () => {
    await speak('ko')
    renderLibrary()
    await waitFor(() => expect(rowNames()).toHaveLength(3))
    expect(rowNames().sort()).toEqual(['Camera', '카메라 (2D)', '카메라 (3D)'])
    await speak('zh')
    await waitFor(() =>
      expect(rowNames().sort()).toEqual(['Camera', '摄像头（2D）', '摄像头（3D）']),
    )
    await speak('en')
    await waitFor(() => expect(rowNames().sort()).toEqual(['Camera', 'Camera (2D)', 'Camera (3D)']))
  })

  it('show the category column’s seeded path in the user’s language, typed steps as typed', async () => {
    const fake = fakeTemplateServices()
    fake.templates.set('lamp', {
      ...fake.templates.get('lamp'),
      id: 'lamp',
      name: 'Lamp',
      type: '2D',
      poicategory_code: 'L1',
      // the server's stored path (English), and its steps with the seeded names' ids
      category: 'Security / Cameras / Gate cams',
      category_path: [
        { category_name: 'Security', name_key: 'library.category.security' },
        { category_name: 'Cameras', name_key: 'library.category.cameras' },
        { category_name: 'Gate cams' },
      ],
    } as never)
    await speak('ko')
    renderWithI18n(<TemplateList services={fake.services} />)
    const row = await screen.findByRole('row', { name: /Lamp/ })
    expect(within(row).getByText('보안 / 카메라 / Gate cams')).toBeTruthy()
    await speak('zh')
    await waitFor(() => expect(within(row).getByText('安防 / 摄像头 / Gate cams')).toBeTruthy())
    await speak('en')
    await waitFor(() =>
      expect(within(row).getByText('Security / Cameras / Gate cams')).toBeTruthy(),
    )
  })

  it('name the templates of the POI table’s filter the same way', async () => {
    await speak('ko')
    const camera2d = sceneTemplate('t1', 'Camera', { name_key: 'library.template.camera2d' })
    const camera3d = sceneTemplate('t2', 'Camera', {
      name_key: 'library.template.camera3d',
      type: '3D',
    })
    const server = createFakePoiServer(
      [camera2d, camera3d],
      [
        poiRecord({ id: 'a', category_id: 't1', name: 'Gate', x: 121, y: 31 }, camera2d),
        poiRecord({ id: 'b', category_id: 't2', name: 'Roof', x: 121, y: 31 }, camera3d),
      ],
    )
    const store = createPoiStore(server)
    await store.load('project-1', 'city')
    renderWithI18n(<PoiTable store={store} />)
    const filter = await screen.findByRole('combobox', { name: '템플릿' })
    const options = within(filter)
      .getAllByRole('option')
      .map((option) => option.textContent)
    expect(options).toEqual(expect.arrayContaining(['카메라 (2D)', '카메라 (3D)']))
    await userEvent.selectOptions(filter, 't2')
    expect((filter as HTMLSelectElement).value).toBe('t2')
  })
  it('name the seeded categories of the category filter in the user’s language', async () => {
    const fake = fakeTemplateServices()
    const security = categoryNode('5', 'Security', null, [], {
      name_key: 'library.category.security',
    } as never)
    const gate = categoryNode('6', 'Gate cams', security)
    fake.services.selectCategoryPage = async () => ({
      list: [security, gate],
      total: 2,
      pageNo: 1,
      pageSize: 20,
    })
    // the select's options (the listbox shows the same labels when it opens)
    for (const [locale, seeded] of [
      ['ko', '보안'],
      ['zh', '安防'],
      ['en', 'Security'],
    ] as const) {
      await speak(locale)
      const view = renderWithI18n(<TemplateList services={fake.services} />)
      const filter = await screen.findByTestId('template-category-filter')
      const labels = () => [...filter.querySelectorAll('option')].map((o) => o.textContent)
      await waitFor(() => expect(labels()).toEqual(['', seeded, 'Gate cams']))
      view.unmount()
    }
  })
})
