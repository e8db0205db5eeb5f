import { describe, expect, it } from 'vitest'
import type { ModelInfoDatum } from '../../../contract/building'
import { appRoutes, matchAppRoute } from '../../app/route-table'
import { guardNavigation } from '../../app/guard'
import { routePages } from '../../app/routes'
import { sceneDescriptionOf } from './scene-description'
import { overallLoadProgress } from './scene-progress'
import { spaceLocationOf, spaceModules } from './space-modules'
import { filePercentsOf } from './upload-rows'

function model(
  id: string,
  role: 'shell' | 'floor' | 'model',
  floorId: string | null,
): ModelInfoDatum['models'][number] {
  return {
    id,
    project_id: 'p1',
    name: `${id}.sbm`,
    file_name: `${id}.sbm`,
    role,
    floor_id: floorId,
    url: `/web/model/files/${id}/abc.sbm`,
    size_bytes: 1000,
    triangle_count: 12,
    has_stored_bvh: true,
    preview_path: null,
    model_load_hint: 'storedBvh',
    placement: { position: [0, 0, 0], rotationDegrees: [0, 0, 0], scale: [1, 1, 1] },
    is_visible: true,
    created_at: '2026-11-26T00:00:00.000Z',
    updated_at: '2026-11-26T00:00:00.000Z',
  }
}

describe('space modules (SPEC §2 space sidebar and sub-tabs)', () => {
  it('lists the sidebar modules in the spec order, each path a real /bim4 route', () => {
    expect(spaceModules.map((module) => module.id)).toEqual([
      'model',
      'poi',
      'gml',
      'location',
      'download',
      'template',
      'style',
      'visit',
    ])
    for (const module of spaceModules) {
      for (const tab of module.tabs) {
        const { route } = matchAppRoute(tab.path)
        expect(route.id, tab.path).toMatch(/^bim4/)
        // every /bim4 page renders the same editor component, so the scene survives navigation
        expect(routePages[route.id], tab.path).toBe(routePages.bim4Poi)
      }
    }
  })

  it('renders every /bim4 route except the public preview with the one editor component', () => {
    const editorRoutes = appRoutes.filter(
      (route) => route.pattern.startsWith('/bim4/') && route.id !== 'outPreview',
    )
    expect(editorRoutes.length).toBeGreaterThanOrEqual(12)
    for (const route of editorRoutes)
      expect(routePages[route.id], route.id).toBe(routePages.bim4Poi)
  })

  it('finds the module and tab of a path, falling back to POI and the first tab', () => {
    expect(spaceLocationOf('/bim4/model/library')).toMatchObject({
      module: { id: 'model' },
      tab: { id: 'library' },
    })
    expect(spaceLocationOf('/bim4/model')).toMatchObject({
      module: { id: 'model' },
      tab: { id: 'library' },
    })
    expect(spaceLocationOf('/bim4/visit/expand')).toMatchObject({
      module: { id: 'visit' },
      tab: { id: 'expand' },
    })
    expect(spaceLocationOf('/bim4/VISIT/moreCase').tab.id).toBe('moreCase')
    expect(spaceLocationOf('/bim4/poi').module.id).toBe('poi')
    expect(spaceLocationOf('/somewhere').module.id).toBe('poi')
  })

  it('keeps the guard rule: a /bim4 module other than poi opened from the root goes to poi', async () => {
    const dependencies = {
      isSignedIn: () => true,
      hasUserData: () => true,
      refreshToken: async () => undefined,
      fetchUserData: async () => undefined,
      signOut: async () => undefined,
    }
    for (const path of ['/bim4/model/library', '/bim4/gml/path', '/bim4/gml']) {
      expect(await guardNavigation({ path, search: '' }, '/', dependencies)).toEqual({
        kind: 'redirect',
        to: '/bim4/poi',
      })
      expect(await guardNavigation({ path, search: '' }, '/bim4/poi', dependencies)).toEqual({
        kind: 'proceed',
      })
    }
  })
})

describe('sceneDescriptionOf', () => {
  it('maps the findModelInfo answer to the engine description, floors bottom-up', () => {
    const info: ModelInfoDatum = {
      structure: {
        name: 'House',
        shellModelId: 'shell',
        floors: [
          { id: 'f2', name: '2F', elevation: 3.5, modelIds: ['m2', 'gone'] },
          { id: 'f1', name: '1F', elevation: 0, modelIds: ['m1'] },
        ],
      },
      models: [
        model('shell', 'shell', null),
        model('m1', 'floor', 'f1'),
        model('m2', 'floor', 'f2'),
      ],
      shell_json_path: '/web/model/structure/p1/x.json',
    }
    const description = sceneDescriptionOf('p1', 'Project name', info)
    expect(description).toEqual({
      projectId: 'p1',
      name: 'House',
      shellModelId: 'shell',
      floors: [
        { id: 'f1', name: '1F', elevationMeters: 0, modelIds: ['m1'] },
        { id: 'f2', name: '2F', elevationMeters: 3.5, modelIds: ['m2'] },
      ],
      models: [
        {
          id: 'shell',
          name: 'shell.sbm',
          role: 'shell',
          floorId: null,
          url: '/web/model/files/shell/abc.sbm',
          sizeBytes: 1000,
        },
        {
          id: 'm1',
          name: 'm1.sbm',
          role: 'floor',
          floorId: 'f1',
          url: '/web/model/files/m1/abc.sbm',
          sizeBytes: 1000,
        },
        {
          id: 'm2',
          name: 'm2.sbm',
          role: 'floor',
          floorId: 'f2',
          url: '/web/model/files/m2/abc.sbm',
          sizeBytes: 1000,
        },
      ],
    })
  })

  it('drops a shell that is not among the models and names the scene after the project', () => {
    const info: ModelInfoDatum = {
      structure: { name: '', shellModelId: 'missing', floors: [] },
      models: [model('m1', 'model', null)],
      shell_json_path: null,
    }
    const description = sceneDescriptionOf('p1', 'Project name', info)
    expect(description.shellModelId).toBeNull()
    expect(description.name).toBe('Project name')
  })
})

describe('overallLoadProgress', () => {
  const gml = { isLoading: false }
  it('is done with nothing to load', () => {
    expect(
      overallLoadProgress({
        loading: { jobs: [], doneBytes: 0, totalBytes: 0 },
        building: { models: [], gml },
      }),
    ).toMatchObject({ isLoading: false, fraction: 1, modelCount: 0 })
  })

  it('combines downloaded bytes with settled models while loading', () => {
    const progress = overallLoadProgress({
      loading: { jobs: [{}], doneBytes: 500, totalBytes: 1000 },
      building: {
        models: [{ loadState: 'success' }, { loadState: 'loading' }],
        gml,
      },
    })
    expect(progress).toMatchObject({ isLoading: true, settledModelCount: 1, modelCount: 2 })
    expect(progress.fraction).toBeCloseTo(0.5)
  })

  it('counts failed models as settled', () => {
    const progress = overallLoadProgress({
      loading: { jobs: [], doneBytes: 0, totalBytes: 0 },
      building: { models: [{ loadState: 'error' }, { loadState: 'success' }], gml },
    })
    expect(progress).toMatchObject({ isLoading: false, settledModelCount: 2, fraction: 1 })
  })
})

describe('filePercentsOf', () => {
  it('fills the files of one multipart body one after the other', () => {
    expect(filePercentsOf([100, 300], 0, 440)).toEqual([0, 0])
    // 110 of 440 body bytes = a quarter of the 400 file bytes = all of the first file
    expect(filePercentsOf([100, 300], 110, 440)).toEqual([100, 0])
    const [first, second] = filePercentsOf([100, 300], 220, 440)
    expect(first).toBe(100)
    expect(second).toBeCloseTo(100 / 3)
    expect(filePercentsOf([100, 300], 440, 440)).toEqual([100, 100])
  })

  it('never leaves 0..100', () => {
    for (const [sent, total] of [
      [-5, 100],
      [500, 100],
      [50, 0],
    ] as const) {
      for (const percent of filePercentsOf([10, 0, 20], sent, total)) {
        expect(percent).toBeGreaterThanOrEqual(0)
        expect(percent).toBeLessThanOrEqual(100)
      }
    }
  })
})
