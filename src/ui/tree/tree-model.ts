/**
 * The pure rules of the tree widget (SPEC §4 "Tree", §9): which nodes start expanded, which
 * rows are visible, and how many levels are drawn.
 */

/** Identifies a tree node; the same id must not appear twice in one tree. */
export type TreeNodeId = string | number

/**
 * A node of a {@link Tree}. Extra fields are allowed and come back in `onSelect`; a richer node
 * type narrows `children` to itself (`interface Floor extends TreeNode { children?: Floor[] }`).
 */
export interface TreeNode {
  id: TreeNodeId
  name: string
  children?: readonly TreeNode[]
}

/** SPEC §4: layers below this one start expanded (layer 1 is the roots). */
export const defaultTreeMaxLayer = 2

/** SPEC §9: the tree draws at most this many levels. */
export const maxRenderedTreeLayers = 5

/** One visible line of the tree. */
export interface TreeRow<Node extends TreeNode = TreeNode> {
  node: Node
  /** 1 for the roots. */
  layer: number
  parentId: TreeNodeId | undefined
  /** Whether it has children that can be drawn (children below layer 5 are not). */
  hasChildren: boolean
  isExpanded: boolean
  /** 1-based position among its siblings and their count, for aria-posinset/setsize. */
  positionInSet: number
  setSize: number
}

function drawableChildren(node: TreeNode, layer: number): readonly TreeNode[] {
  return layer < maxRenderedTreeLayers ? (node.children ?? []) : []
}

/** Visits every drawable node with its layer. */
function walk(
  nodes: readonly TreeNode[],
  visit: (node: TreeNode, layer: number) => void,
  layer = 1,
) {
  for (const node of nodes) {
    visit(node, layer)
    walk(drawableChildren(node, layer), visit, layer + 1)
  }
}

/** Ids of the nodes that start expanded: those with children on a layer below `maxLayer`. */
export function defaultExpandedIds(
  nodes: readonly TreeNode[],
  maxLayer: number = defaultTreeMaxLayer,
): Set<TreeNodeId> {
  const expanded = new Set<TreeNodeId>()
  walk(nodes, (node, layer) => {
    if (layer < maxLayer && drawableChildren(node, layer).length > 0) expanded.add(node.id)
  })
  return expanded
}

/**
 * The expansion after the tree's data changed: nodes already shown keep what the user did with
 * them, nodes that are new (e.g. loaded later) get the default rule.
 */
export function expandedIdsAfterUpdate(
  expanded: ReadonlySet<TreeNodeId>,
  previousNodes: readonly TreeNode[],
  nextNodes: readonly TreeNode[],
  maxLayer: number = defaultTreeMaxLayer,
): Set<TreeNodeId> {
  const previousIds = new Set<TreeNodeId>()
  walk(previousNodes, (node) => previousIds.add(node.id))
  const nextExpanded = new Set<TreeNodeId>()
  const defaults = defaultExpandedIds(nextNodes, maxLayer)
  walk(nextNodes, (node) => {
    const isKnown = previousIds.has(node.id)
    if (isKnown ? expanded.has(node.id) : defaults.has(node.id)) nextExpanded.add(node.id)
  })
  return nextExpanded
}

/** The rows to draw, depth first, skipping the children of collapsed nodes. */
export function visibleTreeRows<Node extends TreeNode>(
  nodes: readonly Node[],
  expanded: ReadonlySet<TreeNodeId>,
): TreeRow<Node>[] {
  const rows: TreeRow<Node>[] = []
  const add = (siblings: readonly Node[], layer: number, parentId: TreeNodeId | undefined) => {
    siblings.forEach((node, index) => {
      const children = drawableChildren(node, layer) as readonly Node[]
      const isExpanded = children.length > 0 && expanded.has(node.id)
      rows.push({
        node,
        layer,
        parentId,
        hasChildren: children.length > 0,
        isExpanded,
        positionInSet: index + 1,
        setSize: siblings.length,
      })
      if (isExpanded) add(children, layer + 1, node.id)
    })
  }
  add(nodes, 1, undefined)
  return rows
}
