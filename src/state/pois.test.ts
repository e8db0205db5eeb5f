import { describe, expect, it, vi } from 'vitest'
import {
  createFakePoiServer,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from '../pages/pois/testing/fake-poi-server'
import { createPoiStore, isTemporaryPoiId, lookOfTemplate, type NewPoi } from './pois'

const camera = sceneTemplate('t1', 'Camera')
const pump = sceneTemplate('t2', 'Pump', {
  type: '3D',
  iconpath: '',
  jpg_name: 'preview.png',
  sbm_name: 'pump.sbm',
  filepath: '/web/files/t2/',
  category_node_id: 'node-3d',
})

function setUp(
  pois = [
    poiRecord(
      { id: 'a', category_id: 't1', name: 'Gate camera', x: 121.6, y: 31.2, devicecode: 'CAM-1' },
      camera,
    ),
  ],
) {
  const server = createFakePoiServer([camera, pump], pois)
  const onError = vi.fn()
  const store = createPoiStore(server, { onError })
  const recorder = createRecordingScene('city')
  store.attachScene(recorder.scene)
  return { server, store, recorder, onError }
}

const newPoi = (fields: Partial<NewPoi> = {}): NewPoi => ({
  name: 'New camera',
  template: camera,
  position: [121.601, 31.201, 0],
  ...fields,
})

describe('POI store: loading', () => {
  it('loads the compact answer into records and draws them with their looks', async () => {
    const { store, recorder } = setUp([
      poiRecord(
        {
          id: 'a',
          category_id: 't1',
          name: 'Gate camera',
          x: 1,
          y: 2,
          z: 3,
          floor_id: 'f1',
          heading: 45,
        },
        camera,
      ),
      poiRecord(
        { id: 'b', category_id: 't2', name: 'Pump 1', x: 4, y: 5, z: 6, floor_id: '' },
        pump,
      ),
    ])
    await store.load('project-1', 'building')
    expect(store.state.status).toBe('ready')
    expect(store.state.count).toBe(2)
    expect(store.get('a')).toMatchObject({
      name: 'Gate camera',
      position: [1, 2, 3],
      floorId: 'f1',
      heading: 45,
    })
    expect(store.get('b')?.floorId).toBeNull()
    const looks = recorder.commands.filter((command) => command.name === 'setPoiLooks').at(-1)?.args
    expect(looks).toEqual([lookOfTemplate(camera), lookOfTemplate(pump)])
    expect(lookOfTemplate(pump)).toEqual({
      templateId: 't2',
      kind: '3D',
      iconUrl: '/web/files/t2/preview.png',
      modelUrl: '/web/files/t2/pump.sbm',
    })
    expect(recorder.drawn.get('b')).toMatchObject({
      templateId: 't2',
      label: 'Pump 1',
      groupId: 'node-3d',
      floorId: null,
    })
    expect(store.entries()).toBe(store.entries())
  })

  it('reports a failed load and keeps nothing', async () => {
    const { store, server } = setUp()
    server.findProjectPois = () => Promise.reject(new Error('offline'))
    await store.load('project-1', 'city')
    expect(store.state.status).toBe('error')
    expect((store.state.loadError as Error).message).toBe('offline')
    expect(store.entries()).toEqual([])
  })

  it('draws what it holds in a scene attached later', async () => {
    const { store } = setUp()
    await store.load('project-1', 'city')
    const late = createRecordingScene('city')
    store.attachScene(late.scene)
    await Promise.resolve()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect([...late.drawn.keys()]).toEqual(['a'])
  })
})

describe('POI store: optimistic edits', () => {
  it('shows a new POI at once under a temporary id, then under the server id', async () => {
    const { store, server, recorder } = setUp()
    await store.load('project-1', 'city')
    server.hold()
    const creating = store.create(newPoi())
    const [temporary] = store.entries().filter((entry) => entry.isPending)
    expect(temporary && isTemporaryPoiId(temporary.id)).toBe(true)
    expect(recorder.drawn.has(temporary?.id ?? '')).toBe(true)
    store.select([temporary?.id ?? ''])
    await server.release()
    const created = await creating
    expect(created?.id).toMatch(/^p\d+$/)
    expect(created?.isPending).toBe(false)
    expect(recorder.drawn.has(temporary?.id ?? '')).toBe(false)
    expect(recorder.drawn.has(created?.id ?? '')).toBe(true)
    expect(store.get(temporary?.id ?? '')?.id).toBe(created?.id)
    expect(store.state.selectedIds).toEqual([created?.id])
    expect(server.pois.get(created?.id ?? '')?.name).toBe('New camera')
  })

  it('rolls a refused create back and shows the error', async () => {
    const { store, server, recorder, onError } = setUp()
    await store.load('project-1', 'city')
    server.refuseNext('poi.selectCategory', 'Select the POI category')
    const created = await store.create(newPoi())
    expect(created).toBeNull()
    expect(store.state.count).toBe(1)
    expect([...recorder.drawn.keys()]).toEqual(['a'])
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[0]).toHaveProperty('message', 'Select the POI category')
  })

  it('moves a POI at once and puts it back when the server refuses', async () => {
    const { store, server, recorder, onError } = setUp([
      poiRecord({ id: 'a', category_id: 't1', devicecode: 'CAM-1' }, camera),
      poiRecord({ id: 'b', category_id: 't1', devicecode: 'CAM-2' }, camera),
    ])
    await store.load('project-1', 'city')
    server.hold()
    const moving = store.update('a', { position: [1, 2, 3], heading: 90 })
    expect(store.get('a')).toMatchObject({ position: [1, 2, 3], heading: 90, isPending: true })
    expect(recorder.drawn.get('a')).toMatchObject({ position: [1, 2, 3], heading: 90 })
    await server.release()
    expect(await moving).toBe(true)
    expect(store.get('a')?.isPending).toBe(false)
    expect(server.pois.get('a')).toMatchObject({ x: 1, y: 2, z: 3, heading: 90 })

    // 'CAM-2' belongs to b: the server refuses, the change is undone here too.
    expect(await store.update('a', { devicecode: 'CAM-2', name: 'Renamed' })).toBe(false)
    expect(store.get('a')).toMatchObject({ devicecode: 'CAM-1', name: 'a', isPending: false })
    expect(onError).toHaveBeenCalledTimes(1)
    expect(server.pois.get('a')?.devicecode).toBe('CAM-1')
  })

  it('sends a change of a POI still being created under its server id, after the create', async () => {
    const { store, server } = setUp()
    await store.load('project-1', 'city')
    server.hold()
    const creating = store.create(newPoi())
    const temporaryId = store.entries().find((entry) => entry.isPending)?.id ?? ''
    const rotating = store.update(temporaryId, { heading: 30 })
    await server.release()
    const created = await creating
    expect(await rotating).toBe(true)
    expect(server.calls.map((call) => call.name)).toEqual([
      'findProjectPoiDetail',
      'creatPoi',
      'updataPoi',
    ])
    expect(server.pois.get(created?.id ?? '')?.heading).toBe(30)
    expect(store.get(created?.id ?? '')?.heading).toBe(30)
  })

  it('deletes at once, restores what the server refused to delete', async () => {
    const { store, server, recorder, onError } = setUp([
      poiRecord({ id: 'a', category_id: 't1' }, camera),
      poiRecord({ id: 'b', category_id: 't1' }, camera),
    ])
    await store.load('project-1', 'city')
    store.select(['a'])
    server.hold()
    const removing = store.remove(['a'])
    expect(store.get('a')).toBeUndefined()
    expect(recorder.drawn.has('a')).toBe(false)
    expect(store.state.selectedIds).toEqual([])
    await server.release()
    expect(await removing).toBe(true)
    expect(server.pois.has('a')).toBe(false)

    server.refuseNext('poi.notYours')
    expect(await store.remove(['b'])).toBe(false)
    expect(store.get('b')).toBeDefined()
    expect(recorder.drawn.has('b')).toBe(true)
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('creates copies in one creatPoiList with isCopyProperties', async () => {
    const { store, server } = setUp()
    await store.load('project-1', 'city')
    const created = await store.createMany(
      [newPoi({ name: 'copy 1', sourceId: 'a' }), newPoi({ name: 'copy 2', sourceId: 'a' })],
      { isCopyProperties: false },
    )
    expect(created?.map((entry) => entry.name)).toEqual(['copy 1', 'copy 2'])
    const call = server.calls.at(-1)
    expect(call?.name).toBe('creatPoiList')
    expect(call?.body).toMatchObject({
      isCopyProperties: false,
      list: [{ source_id: 'a' }, { source_id: 'a' }],
    })
    expect(store.state.count).toBe(3)
  })

  it('changes many POIs in one updataPoiList, all or none', async () => {
    const { store, server } = setUp([
      poiRecord({ id: 'a', category_id: 't1' }, camera),
      poiRecord({ id: 'b', category_id: 't1' }, camera),
    ])
    await store.load('project-1', 'city')
    expect(
      await store.updateMany([
        { id: 'a', changes: { name: 'A' } },
        { id: 'b', changes: { template: pump } },
      ]),
    ).toBe(true)
    expect(server.calls.at(-1)?.name).toBe('updataPoiList')
    expect(store.get('b')?.templateId).toBe('t2')
    expect(store.groupOf(store.get('b') ?? ({} as never))).toBe('node-3d')
  })
})

describe('POI store: undo, classify, ghosts', () => {
  it('undoes a change, a delete and a create, newest first', async () => {
    const { store, server } = setUp([poiRecord({ id: 'a', category_id: 't1', heading: 0 }, camera)])
    await store.load('project-1', 'city')
    await store.update('a', { heading: 45 })
    await store.remove(['a'])
    const created = await store.create(newPoi({ name: 'fresh' }))
    expect(store.state.undoDepth).toBe(3)

    expect(await store.undo()).toBe(true) // the create
    expect(store.get(created?.id ?? '')).toBeUndefined()
    expect(await store.undo()).toBe(true) // the delete: back as a new POI
    const back = store.entries().find((entry) => entry.name === 'a')
    expect(back?.heading).toBe(45)
    expect(server.pois.size).toBe(1)
    expect(await store.undo()).toBe(false) // its change: the POI it named was deleted since
    expect(store.state.undoDepth).toBe(0)
  })

  it('hides and shows groups and draws ghosts', async () => {
    const { store, recorder } = setUp()
    await store.load('project-1', 'city')
    store.setGroupHidden('node-t1', true)
    store.setGroupHidden('node-3d', true)
    store.setGroupHidden('node-t1', false)
    expect(store.state.hiddenGroupIds).toEqual(['node-3d'])
    expect(
      recorder.commands
        .filter((c) => c.name === 'setPoiHiddenGroups' || c.name === 'setHiddenPoiGroups')
        .at(-1)?.args,
    ).toEqual(['node-3d'])
    const entry = store.get('a')
    if (!entry) throw new Error('a is loaded')
    const ghost = store.scenePoiOf({ ...entry, id: 'ghost-1' })
    store.setGhosts([ghost])
    expect(store.state.ghostCount).toBe(1)
    store.setGhosts([])
    expect(store.state.ghostCount).toBe(0)
  })

  it('drops the answers of a project that was closed meanwhile', async () => {
    const { store, server } = setUp()
    await store.load('project-1', 'city')
    server.hold()
    const creating = store.create(newPoi())
    const reloading = store.load('project-2', 'city')
    await server.release()
    await reloading
    expect(await creating).toBeNull()
    expect(store.state.projectId).toBe('project-2')
    expect(store.entries().some((entry) => entry.isPending)).toBe(false)
  })
})
