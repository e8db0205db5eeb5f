import { beforeEach, describe, expect, it } from 'vitest'
import type { Project } from '../../api/project'
import { closeProject, currentProject, projectStorageKeys } from '../../state/project'
import { enterProject, scenePathOf } from './enter-project'

describe('entering a project', () => {
  beforeEach(() => closeProject())

  it('opens city projects under /home/map and building projects at /bim4/poi', () => {
    expect(scenePathOf({ kind: 'city' })).toBe('/home/map')
    expect(scenePathOf({ kind: 'building' })).toBe('/bim4/poi')
  })

  it('keeps project_id and project_token, persisted, before opening the scene', async () => {
    const visited: string[] = []
    const project = { id: 'p-7', kind: 'building' } as Project
    await enterProject(project, {
      getToken: async (id) => ({ project_id: id, project_token: 'token-7', expires_at: '' }),
      navigate: (path) => visited.push(path),
    })
    expect(visited).toEqual(['/bim4/poi'])
    expect(currentProject).toMatchObject({ projectId: 'p-7', projectToken: 'token-7' })
    expect(localStorage.getItem(projectStorageKeys.projectId)).toBe('p-7')
    expect(localStorage.getItem(projectStorageKeys.projectToken)).toBe('token-7')
  })

  it('stays put when the token cannot be issued', async () => {
    const visited: string[] = []
    await expect(
      enterProject({ id: 'p-8', kind: 'city' } as Project, {
        getToken: async () => {
          throw new Error('forbidden')
        },
        navigate: (path) => visited.push(path),
      }),
    ).rejects.toThrow('forbidden')
    expect(visited).toEqual([])
    expect(currentProject.projectId).toBeNull()
  })
})
