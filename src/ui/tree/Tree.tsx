import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react'
import { useControllableState } from '../use-controllable-state'
import {
  defaultExpandedIds,
  defaultTreeMaxLayer,
  expandedIdsAfterUpdate,
  type TreeNode,
  type TreeNodeId,
  visibleTreeRows,
} from './tree-model'
import './Tree.css'

/** Props of {@link Tree}. */
export interface TreeProps<Node extends TreeNode> {
  /** Names the tree for screen readers. */
  label: string
  nodes: readonly Node[]
  /** Layers below this start expanded (default 2: the roots open, their children closed). */
  maxLayer?: number
  selectedId?: TreeNodeId
  defaultSelectedId?: TreeNodeId
  /** Called when a node is clicked or chosen with Enter/Space. */
  onSelect?: (node: Node) => void
  /** Draws a node's label; defaults to its name. */
  renderLabel?: (node: Node) => ReactNode
}

/**
 * A tree of up to five levels (SPEC §4, §9). Clicking a node selects it and opens or closes
 * it. Keyboard: Up/Down move, Right opens or goes to the first child, Left closes or goes to
 * the parent, Home/End jump, Enter/Space act like a click.
 */
export function Tree<Node extends TreeNode>({
  label,
  nodes,
  maxLayer = defaultTreeMaxLayer,
  selectedId,
  defaultSelectedId,
  onSelect,
  renderLabel = (node) => node.name,
}: TreeProps<Node>) {
  const [expandedIds, setExpandedIds] = useState(() => defaultExpandedIds(nodes, maxLayer))
  const [trackedNodes, setTrackedNodes] = useState(nodes)
  if (trackedNodes !== nodes) {
    // New data (e.g. children loaded later): adjust during render so no collapsed frame shows.
    setTrackedNodes(nodes)
    setExpandedIds(expandedIdsAfterUpdate(expandedIds, trackedNodes, nodes, maxLayer))
  }
  const [currentSelectedId, setSelectedId] = useControllableState<TreeNodeId | undefined>({
    value: selectedId,
    defaultValue: defaultSelectedId,
    onChange: undefined,
  })
  const [focusedId, setFocusedId] = useState<TreeNodeId | undefined>(undefined)
  const rowElements = useRef(new Map<TreeNodeId, HTMLDivElement>())

  const rows = visibleTreeRows(nodes, expandedIds)
  const tabStopId =
    rows.find((row) => row.node.id === focusedId)?.node.id ??
    rows.find((row) => row.node.id === currentSelectedId)?.node.id ??
    rows[0]?.node.id

  function setExpanded(id: TreeNodeId, isExpanded: boolean) {
    setExpandedIds((previous) => {
      const next = new Set(previous)
      if (isExpanded) next.add(id)
      else next.delete(id)
      return next
    })
  }

  function moveFocus(id: TreeNodeId | undefined) {
    if (id === undefined) return
    setFocusedId(id)
    rowElements.current.get(id)?.focus()
  }

  function activate(index: number) {
    const row = rows[index]
    if (!row) return
    setSelectedId(row.node.id)
    setFocusedId(row.node.id)
    if (row.hasChildren) setExpanded(row.node.id, !row.isExpanded)
    onSelect?.(row.node)
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>, index: number) {
    const row = rows[index]
    if (!row) return
    let isHandled = true
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(rows[index + 1]?.node.id)
        break
      case 'ArrowUp':
        moveFocus(rows[index - 1]?.node.id)
        break
      case 'Home':
        moveFocus(rows[0]?.node.id)
        break
      case 'End':
        moveFocus(rows.at(-1)?.node.id)
        break
      case 'ArrowRight':
        if (row.hasChildren && !row.isExpanded) setExpanded(row.node.id, true)
        else if (row.isExpanded) moveFocus(rows[index + 1]?.node.id)
        break
      case 'ArrowLeft':
        if (row.isExpanded) setExpanded(row.node.id, false)
        else moveFocus(row.parentId)
        break
      case 'Enter':
      case ' ':
        activate(index)
        break
      default:
        isHandled = false
    }
    if (isHandled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }

  return (
    <div className="ts-tree" role="tree" aria-label={label}>
      {rows.map((row, index) => (
        <div
          key={row.node.id}
          ref={(element) => {
            if (element) rowElements.current.set(row.node.id, element)
            else rowElements.current.delete(row.node.id)
          }}
          role="treeitem"
          className="ts-tree__row"
          aria-level={row.layer}
          aria-posinset={row.positionInSet}
          aria-setsize={row.setSize}
          aria-expanded={row.hasChildren ? row.isExpanded : undefined}
          aria-selected={row.node.id === currentSelectedId}
          tabIndex={row.node.id === tabStopId ? 0 : -1}
          style={{ paddingLeft: `calc(${row.layer - 1} * 16px + 8px)` }}
          onClick={() => activate(index)}
          onKeyDown={(event) => handleKeyDown(event, index)}
          onFocus={() => setFocusedId(row.node.id)}
        >
          <span className="ts-tree__twisty" aria-hidden="true">
            {row.hasChildren ? (row.isExpanded ? '▾' : '▸') : ''}
          </span>
          <span className="ts-tree__label">{renderLabel(row.node)}</span>
        </div>
      ))}
    </div>
  )
}
