import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../testing/render-with-i18n'
import { Tree } from './Tree'
import type { TreeNode } from './tree-model'

interface Building extends TreeNode {
  floorCount?: number
  children?: Building[]
}

const buildings: Building[] = [
  {
    id: 1,
    name: 'Campus',
    children: [
      { id: 11, name: 'Tower', floorCount: 30, children: [{ id: 111, name: 'Lobby' }] },
      { id: 12, name: 'Annex', floorCount: 4 },
    ],
  },
  { id: 2, name: 'Depot', children: [{ id: 21, name: 'Hangar' }] },
]

const item = (name: string) => screen.getByRole('treeitem', { name })
const visibleNames = () =>
  screen.queryAllByRole('treeitem').map((element) => element.textContent?.trim())

describe('Tree', () => {
  it('starts with the first layer open and the second closed', () => {
    renderWithI18n(<Tree label="Buildings" nodes={buildings} />)
    expect(visibleNames()).toEqual(['▾Campus', '▸Tower', 'Annex', '▾Depot', 'Hangar'])
    expect(item('Campus').getAttribute('aria-expanded')).toBe('true')
    expect(item('Tower').getAttribute('aria-expanded')).toBe('false')
    expect(item('Annex').hasAttribute('aria-expanded')).toBe(false)
    expect(item('Tower').getAttribute('aria-level')).toBe('2')
  })

  it('selects a clicked node, reports it with its own fields, and toggles it', async () => {
    const onSelect = vi.fn()
    renderWithI18n(<Tree label="Buildings" nodes={buildings} onSelect={onSelect} />)
    await userEvent.click(item('Tower'))
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 11, floorCount: 30 }))
    expect(item('Tower').getAttribute('aria-selected')).toBe('true')
    expect(item('Lobby')).toBeTruthy()
    await userEvent.click(item('Tower'))
    expect(screen.queryByRole('treeitem', { name: 'Lobby' })).toBeNull()
    await userEvent.click(item('Campus'))
    expect(visibleNames()).toEqual(['▸Campus', '▾Depot', 'Hangar'])
    expect(item('Campus').getAttribute('aria-selected')).toBe('true')
  })

  it('is one tab stop and moves with the arrow keys', async () => {
    renderWithI18n(<Tree label="Buildings" nodes={buildings} />)
    await userEvent.tab()
    expect(document.activeElement).toBe(item('Campus'))
    await userEvent.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(item('Tower'))
    await userEvent.keyboard('{ArrowRight}')
    expect(item('Tower').getAttribute('aria-expanded')).toBe('true')
    await userEvent.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(item('Lobby'))
    await userEvent.keyboard('{ArrowLeft}')
    expect(document.activeElement).toBe(item('Tower'))
    await userEvent.keyboard('{ArrowLeft}')
    expect(item('Tower').getAttribute('aria-expanded')).toBe('false')
    await userEvent.keyboard('{End}')
    expect(document.activeElement).toBe(item('Hangar'))
    await userEvent.keyboard('{Home}')
    expect(document.activeElement).toBe(item('Campus'))
    expect(
      screen.getAllByRole('treeitem').filter((element) => element.tabIndex === 0),
    ).toHaveLength(1)
  })

  it('selects with Enter like a click', async () => {
    const onSelect = vi.fn()
    renderWithI18n(<Tree label="Buildings" nodes={buildings} onSelect={onSelect} />)
    await userEvent.tab()
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}')
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 12, name: 'Annex' }))
    expect(item('Annex').getAttribute('aria-selected')).toBe('true')
  })

  it('opens nodes that arrive later by the same rule, keeping the user’s choices', async () => {
    const { rerender } = renderWithI18n(<Tree label="Buildings" nodes={buildings.slice(0, 1)} />)
    await userEvent.click(item('Campus'))
    rerender(<Tree label="Buildings" nodes={buildings} />)
    expect(visibleNames()).toEqual(['▸Campus', '▾Depot', 'Hangar'])
  })
})
