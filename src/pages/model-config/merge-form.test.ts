import { describe, expect, it } from 'vitest'
import { checkMergeForm, type MergeForm, mergeFormData } from './merge-form'

const file = (name: string) => new File(['x'], name)

const complete = (): MergeForm => ({
  shell: [file('shell.dae')],
  shell_maps: [file('shell.png')],
  floors: [file('1F.fbx'), file('2F.fbx')],
  floor_maps: [file('floor.png')],
  preview: [file('preview.png')],
  output_name: 'Tower',
})

describe('merge form', () => {
  it('names every missing input', () => {
    const problems = checkMergeForm({ ...complete(), shell: [], preview: [], output_name: ' ' })
    expect(Object.keys(problems)).toEqual(['shell', 'preview', 'output_name'])
  })

  it('refuses an output name with path characters', () => {
    expect(Object.keys(checkMergeForm({ ...complete(), output_name: 'a/b' }))).toEqual([
      'output_name',
    ])
    expect(checkMergeForm(complete())).toEqual({})
  })

  it('sends the text fields before the files', () => {
    const data = mergeFormData(complete(), { projectId: 'p1', storeyHeightMeters: 4 })
    expect([...data.keys()]).toEqual([
      'output_name',
      'project_id',
      'storey_height',
      'shell',
      'shell_maps',
      'floors',
      'floors',
      'floor_maps',
      'preview',
    ])
  })
})
