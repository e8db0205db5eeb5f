import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { type CategoryNode, templateLimits } from '../../api/templates'
import { locationCategoryRootId } from '../../../contract/templates'
import {
  Button,
  confirmDelete,
  Dialog,
  EmptyState,
  ErrorState,
  FormDialog,
  Select,
  Spinner,
  TextField,
  Tree,
  type TreeNode,
  toast,
} from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import { usePermissions } from '../use-permissions'
import { serverTemplateServices, type TemplateServices } from './template-services'
import './templates.css'
import { categoryNameText } from '../../i18n/library-names'

/** A category as a node of the tree widget. */
interface CategoryTreeNode extends TreeNode {
  id: string
  children?: CategoryTreeNode[]
}

function toNodes(categories: readonly CategoryNode[]): CategoryTreeNode[] {
  return categories.map((category) => ({
    id: category.id,
    name: categoryNameText(category),
    children: category.children.length > 0 ? toNodes(category.children) : undefined,
  }))
}

function findCategory(tree: readonly CategoryNode[], id: string): CategoryNode | null {
  for (const node of tree) {
    if (node.id === id) return node
    const below = findCategory(node.children, id)
    if (below) return below
  }
  return null
}

/**
 * Whether a new category under `parent` is a shared one: an admin adding under a shared node
 * (the roots included) manages the system categories; anyone else adds their own.
 */
function addsShared(parent: CategoryNode, isAdmin: boolean): boolean {
  return isAdmin && parent.is_system
}

/** Which form is open: adding under a parent, renaming or moving one category. */
type CategoryForm =
  | { mode: 'add'; parent: CategoryNode; isShared: boolean }
  | { mode: 'rename'; category: CategoryNode }
  | { mode: 'move'; category: CategoryNode }

/**
 * The location tree's top as a node of the manager's tree (SPEC §3 "A location type is fetched
 * with id '0'"): not a stored category, so nothing but adding under it is offered.
 */
function locationRoot(name: string, children: CategoryNode[]): CategoryNode {
  return {
    id: locationCategoryRootId,
    pid: '',
    category_name: name,
    value: locationCategoryRootId,
    kind: 'location',
    piddes: locationCategoryRootId,
    level: 0,
    is_system: true,
    can_edit: false,
    created_at: '',
    children,
  }
}

/** The ids of a category and everything under it. */
function subtreeIds(node: CategoryNode): Set<string> {
  const ids = new Set([node.id])
  for (const child of node.children) for (const id of subtreeIds(child)) ids.add(id)
  return ids
}

/**
 * Where a category may move: a node of its own tree (2D/3D, or location) that is not the
 * category itself or under it (the server refuses such a cycle too), nor its present parent.
 */
export function moveTargets(
  forest: readonly CategoryNode[],
  category: CategoryNode,
): CategoryNode[] {
  const excluded = subtreeIds(category)
  const targets: CategoryNode[] = []
  const walk = (nodes: readonly CategoryNode[]) => {
    for (const node of nodes) {
      if (excluded.has(node.id)) continue
      if (node.kind === category.kind && node.id !== category.pid) targets.push(node)
      walk(node.children)
    }
  }
  walk(forest)
  return targets
}

/**
 * The category manager (SPEC §2 "Category manager with add and delete"): the category tree from
 * the roots 2D and 3D, any depth, and the location tree (id '0') beside them. A chosen category
 * can get a child, be renamed, moved under another parent of its tree or deleted (after a
 * confirmation; the server refuses while templates or POIs use it and says how many, and
 * refuses a move under the category's own child). The roots and the shared system categories
 * are only changed by an admin.
 */
export function CategoryManagerDialog({
  isOpen,
  onOpenChange,
  onChanged,
  services = serverTemplateServices,
}: {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** Told after any change, e.g. to reload a category filter. */
  onChanged?: () => void
  services?: TemplateServices
}) {
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={<Trans>Category manager</Trans>}
      widthPx={560}
    >
      {isOpen && <CategoryManager services={services} onChanged={onChanged} />}
    </Dialog>
  )
}

function CategoryManager({
  services,
  onChanged,
}: {
  services: TemplateServices
  onChanged: (() => void) | undefined
}) {
  const { t } = useLingui()
  const { isAdmin } = usePermissions()
  const [tree, setTree] = useState<CategoryNode[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [form, setForm] = useState<CategoryForm | null>(null)
  // a new tree after each change, so the new or renamed node shows with its parents open
  const [revision, setRevision] = useState(0)

  const locationName = t`Location categories`
  const load = useCallback(async () => {
    setLoadError(null)
    try {
      const [poiTree, locationTree] = await Promise.all([
        services.findCategoryTree(),
        services.findLocationCategoryTree(),
      ])
      setTree([...poiTree, locationRoot(locationName, locationTree)])
    } catch (error) {
      setLoadError(error)
    }
  }, [services, locationName])

  useEffect(() => {
    void load()
  }, [load])

  if (loadError !== null) {
    return (
      <ErrorState
        title={<Trans>Network abnormal, please retry later.</Trans>}
        message={errorText(loadError)}
        onRetry={load}
      />
    )
  }
  if (!tree) return <Spinner label={t`Loading categories`} />

  const selected = selectedId === null ? null : findCategory(tree, selectedId)
  // the server says what the caller may change (roots never; shared ones only by an admin)
  const canChange = selected?.can_edit ?? false

  const selectedName = selected?.category_name ?? ''

  async function remove(category: CategoryNode) {
    if (!(await confirmDelete({ itemName: category.category_name }))) return
    try {
      await services.deleteCategory(category.id, category.is_system)
      toast.success(t`Deleted.`)
      setSelectedId(null)
      await load()
      setRevision((current) => current + 1)
      onChanged?.()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <div className="ts-category-manager" data-testid="category-manager">
      <div className="ts-category-manager__actions">
        <Button
          variant="primary"
          disabled={!selected}
          onClick={() =>
            selected &&
            setForm({ mode: 'add', parent: selected, isShared: addsShared(selected, isAdmin) })
          }
        >
          <Trans>Add sub-category</Trans>
        </Button>
        <Button
          disabled={!canChange}
          onClick={() => selected && setForm({ mode: 'rename', category: selected })}
        >
          <Trans>Rename</Trans>
        </Button>
        <Button
          disabled={!canChange}
          onClick={() => selected && setForm({ mode: 'move', category: selected })}
        >
          <Trans>Move</Trans>
        </Button>
        <Button variant="danger" disabled={!canChange} onClick={() => selected && remove(selected)}>
          <Trans>Delete</Trans>
        </Button>
      </div>
      <p className="ts-field__hint">
        {selected ? (
          <Trans>Chosen: {selectedName}</Trans>
        ) : (
          <Trans>Choose a category in the tree.</Trans>
        )}
      </p>
      {tree.length === 0 ? (
        <EmptyState title={<Trans>No categories yet</Trans>} />
      ) : (
        <div className="ts-category-manager__tree">
          <Tree<CategoryTreeNode>
            key={revision}
            label={t`Categories`}
            nodes={toNodes(tree)}
            maxLayer={3}
            selectedId={selectedId ?? undefined}
            onSelect={(node) => setSelectedId(node.id)}
          />
        </div>
      )}
      {form?.mode === 'move' && (
        <MoveCategoryDialog
          category={form.category}
          forest={tree}
          targets={moveTargets(tree, form.category)}
          services={services}
          onClose={() => setForm(null)}
          onMoved={async () => {
            setForm(null)
            await load()
            setRevision((current) => current + 1)
            onChanged?.()
          }}
        />
      )}
      {form && form.mode !== 'move' && (
        <CategoryFormDialog
          form={form}
          services={services}
          onClose={() => setForm(null)}
          onSaved={async (category) => {
            setForm(null)
            await load()
            setRevision((current) => current + 1)
            if (category) setSelectedId(category.id)
            onChanged?.()
          }}
        />
      )}
    </div>
  )
}

/**
 * The create-POI-category popup (SPEC §2) and its rename twin: one name field; an empty name
 * gets 'please fill in the category name' (SPEC §5).
 */
export function CategoryFormDialog({
  form,
  services,
  onClose,
  onSaved,
}: {
  form: Exclude<CategoryForm, { mode: 'move' }>
  services: TemplateServices
  onClose: () => void
  onSaved: (category: { id: string } | null) => void | Promise<void>
}) {
  const { t } = useLingui()
  const [name, setName] = useState(form.mode === 'rename' ? form.category.category_name : '')
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const isEmpty = !name.trim()
  const parentName = form.mode === 'add' ? form.parent.category_name : ''

  async function submit() {
    setHasTriedSubmit(true)
    if (isEmpty) {
      toast.warning(t`Please fill in the category name.`)
      return
    }
    try {
      if (form.mode === 'add') {
        const category = await services.addCategory(
          { category_name: name.trim(), pid: form.parent.id },
          form.isShared,
        )
        toast.success(t`Category added.`)
        await onSaved(category)
      } else {
        await services.updateCategory(
          { id: form.category.id, category_name: name.trim() },
          form.category.is_system,
        )
        toast.success(t`Modified successfully.`)
        await onSaved(null)
      }
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose()
      }}
      title={
        form.mode === 'add' ? <Trans>Create POI category</Trans> : <Trans>Rename category</Trans>
      }
      onSubmit={submit}
      submitLabel={form.mode === 'add' ? <Trans>Save</Trans> : <Trans>Modify</Trans>}
    >
      {form.mode === 'add' && (
        <p className="ts-field__hint">
          <Trans>Parent: {parentName}</Trans>
        </p>
      )}
      <TextField
        label={t`Category name`}
        value={name}
        maxLength={templateLimits.categoryNameMaxLength}
        autoFocus
        onChange={(event) => setName(event.target.value)}
        error={hasTriedSubmit && isEmpty ? t`Please fill in the category name.` : undefined}
        required
        data-testid="category-name"
      />
    </FormDialog>
  )
}

/**
 * Moves a category under another parent of its tree: the choice lists only parents that make
 * no cycle; the server checks again and its refusal is shown as it says it.
 */
function MoveCategoryDialog({
  category,
  forest,
  targets,
  services,
  onClose,
  onMoved,
}: {
  category: CategoryNode
  /** The whole tree, for the targets' path names. */
  forest: readonly CategoryNode[]
  targets: readonly CategoryNode[]
  services: TemplateServices
  onClose: () => void
  onMoved: () => void | Promise<void>
}) {
  const { t } = useLingui()
  const [parentId, setParentId] = useState<string | null>(null)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const categoryName = categoryNameText(category)

  async function submit() {
    setHasTriedSubmit(true)
    if (parentId === null) {
      toast.warning(t`Choose the new parent category.`)
      return
    }
    try {
      await services.updateCategory({ id: category.id, pid: parentId }, category.is_system)
      toast.success(t`Modified successfully.`)
      await onMoved()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose()
      }}
      title={<Trans>Move {categoryName}</Trans>}
      onSubmit={submit}
      submitLabel={<Trans>Move</Trans>}
    >
      <Select
        label={t`New parent category`}
        options={targets.map((target) => ({
          value: target.id,
          // the full path, so two categories of one name tell apart
          label: pathNameOf(forest, target),
        }))}
        value={parentId}
        onValueChange={setParentId}
        placeholder={t`Choose…`}
        error={hasTriedSubmit && parentId === null ? t`Required` : undefined}
        required
      />
    </FormDialog>
  )
}

/** A category's name with its ancestors' (e.g. '2D / Cameras / Domes'), from the whole forest. */
function pathNameOf(forest: readonly CategoryNode[], target: CategoryNode): string {
  const byId = new Map<string, CategoryNode>()
  const walk = (nodes: readonly CategoryNode[]) => {
    for (const node of nodes) {
      byId.set(node.id, node)
      walk(node.children)
    }
  }
  walk(forest)
  const names = target.piddes
    .split(',')
    .map((id) => byId.get(id)?.category_name)
    .filter((name): name is string => name !== undefined)
  // a location category's path starts below the location tree's top, which has a name here
  const top = byId.get(locationCategoryRootId)
  if (target.kind === 'location' && target.id !== locationCategoryRootId && top) {
    names.unshift(top.category_name)
  }
  return names.length > 0 ? names.join(' / ') : target.category_name
}
