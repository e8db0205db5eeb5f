import { describe, expect, it } from 'vitest'
import {
  attributeProblem,
  basicProblem,
  categoryPathTo,
  chooseCategory,
  initialTemplateValues,
  isTabEnabled,
  isZipFile,
  tabAfterSave,
  templateFieldsOf,
  typeOfCategoryPath,
} from './template-form'
import { categoryNode, sampleCategoryTree } from './testing/fake-template-services'

const tree = sampleCategoryTree()
const fire = tree[1]!.children[0]!
fire.children = [categoryNode('21', 'Extinguishers', fire)]

describe('category choice (SPEC §4)', () => {
  it('makes a template 3D when the first id is 2, else 2D', () => {
    expect(typeOfCategoryPath(['2', '20', '21'])).toBe('3D')
    expect(typeOfCategoryPath(['1', '10'])).toBe('2D')
    expect(typeOfCategoryPath([])).toBe('2D')
    // 12 and 20 start with a 2 but are not the root 2
    expect(typeOfCategoryPath(['12'])).toBe('2D')
  })

  it('clears the icon and any model on every change', () => {
    const values = {
      ...initialTemplateValues(null),
      categoryPath: ['1', '10'],
      iconpath: '/files/icon.png',
      category_zip_uuid: 'zip-1',
    }
    const changed = chooseCategory(values, ['2', '20'])
    expect(changed.type).toBe('3D')
    expect(changed.iconpath).toBe('')
    expect(changed.category_zip_uuid).toBe('')
    expect(chooseCategory(values, ['1', '10']).iconpath).toBe('')
  })

  it('finds the path of a category in a tree of any depth', () => {
    expect(categoryPathTo(tree, '21')).toEqual(['2', '20', '21'])
    expect(categoryPathTo(tree, '99')).toBeNull()
  })
})

describe('template popup tabs (SPEC §4)', () => {
  it('opens only basic while the template has no id', () => {
    expect(isTabEnabled('basic', null)).toBe(true)
    for (const tab of ['static', 'labels', 'events'] as const) {
      expect(isTabEnabled(tab, null)).toBe(false)
      expect(isTabEnabled(tab, '7')).toBe(true)
    }
  })

  it('moves to labels after the first save and stays put after later ones', () => {
    expect(tabAfterSave('basic', true)).toBe('labels')
    expect(tabAfterSave('basic', false)).toBe('basic')
  })
})

describe('basic validation (SPEC §5)', () => {
  const complete2d = {
    ...initialTemplateValues(null),
    name: 'Camera',
    poicategory_code: 'CAM-1',
    categoryPath: ['1', '10'],
    iconpath: '/files/cam.png',
  }

  it('needs name, encoding, category and icon for a simple 2D template', () => {
    expect(basicProblem(complete2d)).toBeNull()
    expect(basicProblem({ ...complete2d, name: '  ' })).toBe('incomplete')
    expect(basicProblem({ ...complete2d, poicategory_code: '' })).toBe('incomplete')
    expect(basicProblem({ ...complete2d, categoryPath: [] })).toBe('incomplete')
    expect(basicProblem({ ...complete2d, iconpath: '' })).toBe('incomplete')
  })

  it('needs the model zip of a 3D template', () => {
    const values = chooseCategory(complete2d, ['2', '20'])
    expect(basicProblem(values)).toBe('incomplete')
    expect(basicProblem({ ...values, category_zip_uuid: 'zip-1' })).toBeNull()
  })

  it('needs at least one named level for a multi-level template', () => {
    const values = { ...complete2d, kind: 'multiLevel' as const, iconpath: '', levels: [] }
    expect(basicProblem(values)).toBe('incomplete')
    expect(basicProblem({ ...values, levels: [{ level_name: ' ', customs: [] }] })).toBe(
      'incomplete',
    )
    expect(basicProblem({ ...values, levels: [{ level_name: 'Floor 1', customs: [] }] })).toBeNull()
  })

  it('sends piddes as the comma-separated path with the default bgtype', () => {
    expect(templateFieldsOf(complete2d)).toMatchObject({
      name: 'Camera',
      poicategory_code: 'CAM-1',
      piddes: '1,10',
      iconpath: '/files/cam.png',
      bgtype: '1',
    })
  })
})

describe('static attribute validation (SPEC §5)', () => {
  const values = { property_column: 'brand', column_des: 'Brand', column_example: 'Acme' }

  it('needs the template to exist first', () => {
    expect(attributeProblem(values, null)).toBe('noTemplate')
  })

  it('needs all three fields', () => {
    expect(attributeProblem({ ...values, column_des: '' }, '3')).toBe('incomplete')
    expect(attributeProblem({ ...values, column_example: ' ' }, '3')).toBe('incomplete')
    expect(attributeProblem(values, '3')).toBeNull()
  })

  it('takes only an identifier as the English name', () => {
    expect(attributeProblem({ ...values, property_column: 'max_temp2' }, '3')).toBeNull()
    expect(attributeProblem({ ...values, property_column: '2nd' }, '3')).toBe('notIdentifier')
    expect(attributeProblem({ ...values, property_column: 'brand name' }, '3')).toBe(
      'notIdentifier',
    )
    expect(attributeProblem({ ...values, property_column: '品牌' }, '3')).toBe('notIdentifier')
  })
})

describe('3D model upload (SPEC §5)', () => {
  it('takes only a zip, by either zip content type', () => {
    expect(isZipFile({ name: 'camera.zip', type: 'application/zip' })).toBe(true)
    expect(isZipFile({ name: 'camera.ZIP', type: 'application/x-zip-compressed' })).toBe(true)
    expect(isZipFile({ name: 'camera.zip', type: '' })).toBe(true)
    expect(isZipFile({ name: 'camera.glb', type: 'model/gltf-binary' })).toBe(false)
    expect(isZipFile({ name: 'camera.rar', type: 'application/vnd.rar' })).toBe(false)
  })
})
