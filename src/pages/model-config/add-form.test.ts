import { describe, expect, it } from 'vitest'
import { addFormData, addPreviewInput, checkAddForm, emptyAddForm } from './add-form'

const file = (name: string) => new File(['x'], name)

describe('structure add form', () => {
  it('names what is missing before anything is sent', () => {
    expect(Object.keys(checkAddForm(emptyAddForm, null)).sort()).toEqual([
      'floors',
      'project',
      'shell',
    ])
    const mapsOnly = { ...emptyAddForm, floors: [file('3F.dae')], shell_maps: [file('a.png')] }
    expect(Object.keys(checkAddForm(mapsOnly, 'p1'))).toEqual(['shell'])
    expect(checkAddForm({ ...emptyAddForm, floors: [file('3F.dae')] }, 'p1')).toEqual({})
  })

  it('previews by names and sends the text fields before the files', () => {
    const form = {
      ...emptyAddForm,
      shell: [file('roof.fbx')],
      floors: [file('3F.dae'), file('B1.sbm')],
    }
    expect(addPreviewInput(form, 'p1', 4)).toEqual({
      project_id: 'p1',
      shell_name: 'roof.fbx',
      floor_names: ['3F.dae', 'B1.sbm'],
      storey_height: 4,
    })
    const data = addFormData(form, 'p1', undefined)
    expect([...data.keys()]).toEqual(['project_id', 'shell', 'floors', 'floors'])
  })
})
