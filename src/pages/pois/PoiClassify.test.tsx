import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { categoryNode } from '../../components/templates/testing/fake-template-services'
import { createPoiStore } from '../../state/pois'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiClassify } from './PoiClassify'
import {
  createFakePoiServer,
  createFakeScreenServices,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from './testing/fake-poi-server'

const twoD = categoryNode('1', '2D', null)
const cameras = categoryNode('10', 'Cameras', twoD)
twoD.children = [cameras]
const threeD = categoryNode('2', '3D', null)
const fire = categoryNode('20', 'Fire', threeD)
threeD.children = [fire]

const dome = sceneTemplate('t1', 'Dome camera', { category_node_id: '10' })
const bullet = sceneTemplate('t2', 'Bullet camera', { category_node_id: '10' })
const pump = sceneTemplate('t3', 'Pump', { type: '3D', category_node_id: '20' })

async function setUp() {
  const server = createFakePoiServer(
    [dome, bullet, pump],
    [
      poiRecord({ id: 'a', category_id: 't1' }, dome),
      poiRecord({ id: 'b', category_id: 't2' }, bullet),
      poiRecord({ id: 'c', category_id: 't2' }, bullet),
      poiRecord({ id: 'd', category_id: 't3' }, pump),
    ],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  const recorder = createRecordingScene('city')
  store.attachScene(recorder.scene)
  await store.load('project-1', 'city')
  renderWithI18n(
    <PoiClassify store={store} services={createFakeScreenServices(server, {}, [twoD, threeD])} />,
  )
  return { store, recorder }
}

const lastHidden = (recorder: ReturnType<typeof createRecordingScene>) =>
  recorder.commands.filter((command) => command.name === 'setHiddenPoiGroups').at(-1)?.args

describe('PoiClassify', () => {
  it('groups by category with names, kinds and counts', async () => {
    await setUp()
    const cameraGroup = await screen.findByRole('checkbox', { name: /2D \/ Cameras/ })
    expect(cameraGroup.closest('label')?.textContent).toContain('3')
    expect(
      screen.getByRole('checkbox', { name: /3D \/ Fire/ }).closest('label')?.textContent,
    ).toContain('1')
    expect((cameraGroup as HTMLInputElement).checked).toBe(true)
  })

  it('hides a group in the scene and shows it again', async () => {
    const { store, recorder } = await setUp()
    const fireGroup = await screen.findByRole('checkbox', { name: /3D \/ Fire/ })
    await userEvent.click(fireGroup)
    expect(store.state.hiddenGroupIds).toEqual(['20'])
    expect(lastHidden(recorder)).toEqual(['20'])
    await waitFor(() => expect((fireGroup as HTMLInputElement).checked).toBe(false))
    await userEvent.click(fireGroup)
    expect(lastHidden(recorder)).toEqual([])
    await userEvent.click(screen.getByRole('button', { name: 'Hide all' }))
    expect(lastHidden(recorder)).toEqual(['10', '20'])
    await userEvent.click(screen.getByRole('button', { name: 'Show all' }))
    expect(lastHidden(recorder)).toEqual([])
  })

  it('groups by template: the scene gets template groups and hides one template', async () => {
    const { store, recorder } = await setUp()
    await userEvent.click(await screen.findByRole('radio', { name: 'Template' }))
    const bulletGroup = await screen.findByRole('checkbox', { name: /Bullet camera/ })
    expect(bulletGroup.closest('label')?.textContent).toContain('2')
    expect(recorder.drawn.get('b')).toMatchObject({ groupId: 't2' })
    await userEvent.click(bulletGroup)
    expect(lastHidden(recorder)).toEqual(['t2'])
    expect(store.state.grouping).toBe('template')
  })
})
