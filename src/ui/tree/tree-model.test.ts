import { describe, expect, it } from 'vitest'
import {
  defaultExpandedIds,
  expandedIdsAfterUpdate,
  maxRenderedTreeLayers,
  type TreeNode,
  visibleTreeRows,
} from './tree-model'

/** A chain of `depth` nested nodes: n1 > n2 > … */
function chain(depth: number): TreeNode[] {
  let node: TreeNode = { id: `n${depth}`, name: `Level ${depth}` }
  for (let level = depth - 1; level >= 1; level -= 1) {
    node = { id: `n${level}`, name: `Level ${level}`, children: [node] }
  }
  return [node]
}

const photography: TreeNode[] = [
  {
    id: 'district-a',
    name: 'District A',
    children: [
      { id: 'block-1', name: 'Block 1', children: [{ id: 'tile-1', name: 'Tile 1' }] },
      { id: 'block-2', name: 'Block 2' },
    ],
  },
  { id: 'district-b', name: 'District B', children: [{ id: 'block-3', name: 'Block 3' }] },
]

describe('defaultExpandedIds', () => {
  it('opens the layers below max layer 2: the roots only', () => {
    expect([...defaultExpandedIds(photography)]).toEqual(['district-a', 'district-b'])
  })

  it('opens deeper with a larger max layer, never leaves', () => {
    expect([...defaultExpandedIds(photography, 3)].sort()).toEqual([
      'block-1',
      'district-a',
      'district-b',
    ])
    expect(defaultExpandedIds(photography, 1).size).toBe(0)
  })
})

describe('visibleTreeRows', () => {
  it('shows roots and their children, with layers and positions', () => {
    const rows = visibleTreeRows(photography, defaultExpandedIds(photography))
    expect(rows.map((row) => [row.node.id, row.layer, row.isExpanded])).toEqual([
      ['district-a', 1, true],
      ['block-1', 2, false],
      ['block-2', 2, false],
      ['district-b', 1, true],
      ['block-3', 2, false],
    ])
    const block2 = rows.find((row) => row.node.id === 'block-2')
    expect(block2).toMatchObject({
      parentId: 'district-a',
      positionInSet: 2,
      setSize: 2,
      hasChildren: false,
    })
  })

  it('draws at most five levels', () => {
    const deep = chain(7)
    const everything = new Set(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'])
    const rows = visibleTreeRows(deep, everything)
    expect(rows).toHaveLength(maxRenderedTreeLayers)
    expect(rows.at(-1)).toMatchObject({ layer: 5, hasChildren: false, isExpanded: false })
  })
})

describe('expandedIdsAfterUpdate', () => {
  it('keeps what the user did and applies the default to new nodes', () => {
    const userCollapsedA = new Set(['district-b'])
    const grown: TreeNode[] = [
      ...photography,
      { id: 'district-c', name: 'District C', children: [{ id: 'block-9', name: 'Block 9' }] },
    ]
    const next = expandedIdsAfterUpdate(userCollapsedA, photography, grown)
    expect([...next].sort()).toEqual(['district-b', 'district-c'])
  })

  it('forgets nodes that are gone', () => {
    const next = expandedIdsAfterUpdate(
      new Set(['district-a', 'district-b']),
      photography,
      photography.slice(1),
    )
    expect([...next]).toEqual(['district-b'])
  })
})
