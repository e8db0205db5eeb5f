import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import { ConfirmHost, ToastHost, toast } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { CategoryManagerDialog, moveTargets } from './CategoryManagerDialog'
import {
  categoryNode,
  fakeTemplateServices,
  sampleCategoryTree,
} from './testing/fake-template-services'

afterEach(() => {
  act(() => toast.dismissAll())
})

const toastTexts = () => [...document.querySelectorAll('.ts-toast')].map((node) => node.textContent)

function renderManager(services: ReturnType<typeof fakeTemplateServices>['services']) {
  renderWithI18n(
    <>
      <ToastHost />
      <ConfirmHost />
      <CategoryManagerDialog isOpen onOpenChange={() => {}} services={services} />
    </>,
  )
  return userEvent.setup()
}

describe('category manager', () => {
  it("shows the location tree (id '0') beside the 2D and 3D roots", async () => {
    const fake = fakeTemplateServices()
    const user = renderManager(fake.services)
    const tree = await screen.findByRole('tree', { name: 'Categories' })
    const roots = ['2D', '3D', 'Location categories']
    for (const name of roots) {
      expect(within(tree).getByRole('treeitem', { name })).toBeTruthy()
    }
    expect(within(tree).getByRole('treeitem', { name: 'Floors' })).toBeTruthy()
    expect(fake.callsOf('findLocationCategoryTree')).toHaveLength(1)
    // the location top is no stored category: only adding under it is offered
    await user.click(within(tree).getByRole('treeitem', { name: 'Location categories' }))
    expect(screen.getByRole('button', { name: 'Add sub-category' }).hasAttribute('disabled')).toBe(
      false,
    )
    for (const name of ['Rename', 'Move', 'Delete']) {
      expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(true)
    }
  })

  it('moves a category under another parent of its tree, never under itself', async () => {
    const fake = fakeTemplateServices()
    const user = renderManager(fake.services)
    const tree = await screen.findByRole('tree', { name: 'Categories' })
    await user.click(within(tree).getByRole('treeitem', { name: 'Cameras' }))
    await user.click(screen.getByRole('button', { name: 'Move' }))
    const dialog = await screen.findByRole('dialog', { name: 'Move Cameras' })
    await user.click(within(dialog).getByRole('button', { name: 'Move' }))
    await waitFor(() => expect(toastTexts().join()).toContain('Choose the new parent category.'))

    await user.click(within(dialog).getByRole('combobox', { name: 'New parent category' }))
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent)
    // not itself, not its present parent (2D), not the location tree
    expect(options).toEqual(['2D / Sensors', '3D', '3D / Fire'])
    await user.click(screen.getByRole('option', { name: '2D / Sensors' }))
    await user.click(within(dialog).getByRole('button', { name: 'Move' }))
    await waitFor(() => expect(fake.callsOf('updateCategory')).toHaveLength(1))
    expect(fake.callsOf('updateCategory')[0]?.args).toEqual([{ id: '10', pid: '11' }, false])
  })

  it("shows the server's refusal of a move as it says it", async () => {
    const fake = fakeTemplateServices({
      async updateCategory() {
        throw new ApiError({
          reason: 'server',
          httpStatus: 400,
          fallbackMessage: 'cycle',
          envelope: {
            code: '1001',
            message: 'A category cannot be moved under itself or one of its own sub-categories.',
            messageId: 'template.categoryCycle',
            datum: null,
          },
        })
      },
    })
    const user = renderManager(fake.services)
    const tree = await screen.findByRole('tree', { name: 'Categories' })
    await user.click(within(tree).getByRole('treeitem', { name: 'Sensors' }))
    await user.click(screen.getByRole('button', { name: 'Move' }))
    const dialog = await screen.findByRole('dialog', { name: 'Move Sensors' })
    await user.click(within(dialog).getByRole('combobox', { name: 'New parent category' }))
    await user.click(await screen.findByRole('option', { name: '3D' }))
    await user.click(within(dialog).getByRole('button', { name: 'Move' }))
    await waitFor(() => expect(toastTexts().join()).toContain('cannot be moved under itself'))
    expect(screen.getByRole('dialog', { name: 'Move Sensors' })).toBeTruthy()
  })
})

describe('moveTargets', () => {
  it('leaves out the category, everything under it and its present parent', () => {
    const [twoD, threeD] = sampleCategoryTree()
    const cameras = twoD!.children[0]!
    const domes = categoryNode('12', 'Domes', cameras)
    const inner = categoryNode('13', 'Inner', domes)
    domes.children = [inner]
    cameras.children = [domes]
    const ids = moveTargets([twoD!, threeD!], cameras).map((node) => node.id)
    expect(ids).toEqual(['11', '2', '20'])
    expect(moveTargets([twoD!, threeD!], domes).map((node) => node.id)).toEqual([
      '1',
      '11',
      '2',
      '20',
    ])
  })
})
