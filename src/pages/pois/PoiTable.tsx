import { Trans, useLingui } from '@lingui/react/macro'
import { useDeferredValue, useMemo, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { propertyColumnPattern } from '../../../contract/templates'
import { errorText } from '../../components/feedback/error-text'
import { type PoiChanges, type PoiStore, poiStore } from '../../state/pois'
import { Button, confirm, EmptyState, ErrorState, FormDialog, Spinner, TextField } from '../../ui'
import { PoiPicture } from './PoiInventory'
import {
  emptyPoiTableFilter,
  type PoiTableFilter,
  type PoiTableSort,
  type PoiTableSortKey,
  poiTableRows,
} from './poi-table-rules'
import { useVirtualWindow } from './virtual-window'
import './pois.css'
import { templateNameText } from '../../i18n/library-names'

/** Height of one table row, px. */
export const poiTableRowHeightPx = 40

/** Props of {@link PoiTable}. */
export interface PoiTableProps {
  store?: PoiStore
  /** Height of the rows' scroll area, px. */
  heightPx?: number
}

/**
 * The POI multi-function table (SPEC §2): every POI of the open project with sortable columns,
 * filters (text, template, kind, device code), multi-select (the scene highlights the selected
 * POIs), bulk edit of fields and a custom property in one `updataPoiList`, and bulk delete after
 * confirming in one `deletePoiList`. Rows are rendered a window at a time, so 100,000 POIs sort,
 * filter and scroll in place.
 */
export function PoiTable({ store = poiStore, heightPx = 480 }: PoiTableProps) {
  const { t } = useLingui()
  const snapshot = useSnapshot(store.state)
  const [filter, setFilter] = useState<PoiTableFilter>(emptyPoiTableFilter)
  const deferredFilter = useDeferredValue(filter)
  const [sort, setSort] = useState<PoiTableSort>({ key: 'name', direction: 'asc' })
  const [isEditing, setIsEditing] = useState(false)
  const scrollRef = useRef<HTMLTableSectionElement>(null)
  const revision = snapshot.revision
  const isBuilding = snapshot.frame === 'building'

  const rows = useMemo(() => {
    void revision
    return poiTableRows(store.entries(), (id) => store.template(id), deferredFilter, sort)
  }, [store, revision, deferredFilter, sort])
  const templates = useMemo(() => {
    void revision
    return store.templates().sort((a, b) => a.name.localeCompare(b.name))
  }, [store, revision])
  const virtual = useVirtualWindow(scrollRef, rows.length, poiTableRowHeightPx, heightPx)
  const selected = useMemo(() => new Set(snapshot.selectedIds), [snapshot.selectedIds])
  const selectedInView = rows.filter((row) => selected.has(row.id)).length
  const isAllSelected = rows.length > 0 && selectedInView === rows.length

  const toggle = (id: string, isChosen: boolean) => {
    const next = new Set(selected)
    if (isChosen) next.add(id)
    else next.delete(id)
    store.select([...next])
  }

  const sortBy = (key: PoiTableSortKey) =>
    setSort((current) => ({
      key,
      direction: current.key === key && current.direction === 'asc' ? 'desc' : 'asc',
    }))

  async function removeSelected() {
    const ids = [...selected]
    const isConfirmed = await confirm({
      type: 'warning',
      title: <Trans>Delete</Trans>,
      message: <Trans>Delete {ids.length} POIs? This cannot be undone.</Trans>,
      confirmLabel: <Trans>Delete</Trans>,
      isDestructive: true,
    })
    if (isConfirmed) await store.remove(ids)
  }

  if (snapshot.status === 'loading' || snapshot.status === 'idle')
    return (
      <div className="ts-poi-list__state">
        <Spinner label={t`Loading POIs…`} />
      </div>
    )
  if (snapshot.status === 'error')
    return (
      <ErrorState
        title={<Trans>The POIs could not be loaded</Trans>}
        message={errorText(snapshot.loadError)}
        onRetry={() => void store.reload()}
      />
    )

  const columns: { key: PoiTableSortKey; label: string }[] = [
    { key: 'name', label: t`Name` },
    { key: 'template', label: t`Template` },
    { key: 'kind', label: t`Kind` },
    { key: 'devicecode', label: t`Device code` },
    ...(isBuilding ? [{ key: 'floor' as const, label: t`Floor` }] : []),
    { key: 'heading', label: t`Heading` },
  ]
  const gridTemplate = `36px 2fr 1.5fr 60px 1.2fr${isBuilding ? ' 1fr' : ''} 80px`

  return (
    <section className="ts-poi-table" aria-label={t`POI multi-function table`}>
      <div className="ts-poi-table__filters">
        <TextField
          label={<Trans>Filter</Trans>}
          type="search"
          value={filter.text}
          placeholder={t`Name, device code or template`}
          onChange={(event) => setFilter({ ...filter, text: event.target.value })}
        />
        <label className="ts-poi-table__select">
          <span>
            <Trans>Template</Trans>
          </span>
          <select
            value={filter.templateId}
            onChange={(event) => setFilter({ ...filter, templateId: event.target.value })}
          >
            <option value="">{t`All templates`}</option>
            {templates.map((template) => (
              <option key={template.id} value={template.id}>
                {templateNameText(template)}
              </option>
            ))}
          </select>
        </label>
        <label className="ts-poi-table__select">
          <span>
            <Trans>Kind</Trans>
          </span>
          <select
            value={filter.kind}
            onChange={(event) =>
              setFilter({ ...filter, kind: event.target.value as PoiTableFilter['kind'] })
            }
          >
            <option value="">{t`2D and 3D`}</option>
            <option value="2D">2D</option>
            <option value="3D">3D</option>
          </select>
        </label>
        <label className="ts-poi-table__select">
          <span>
            <Trans>Device code</Trans>
          </span>
          <select
            value={filter.devicecode}
            onChange={(event) =>
              setFilter({
                ...filter,
                devicecode: event.target.value as PoiTableFilter['devicecode'],
              })
            }
          >
            <option value="">{t`Any`}</option>
            <option value="some">{t`With a device code`}</option>
            <option value="none">{t`Without a device code`}</option>
          </select>
        </label>
      </div>
      <div className="ts-poi-table__actions">
        <span aria-live="polite">
          <Trans>
            {rows.length} of {snapshot.count} POIs, {selected.size} selected
          </Trans>
        </span>
        <Button disabled={selected.size === 0} onClick={() => setIsEditing(true)}>
          <Trans>Edit selected</Trans>
        </Button>
        <Button
          variant="danger"
          disabled={selected.size === 0}
          onClick={() => void removeSelected()}
        >
          <Trans>Delete selected</Trans>
        </Button>
        <Button variant="ghost" disabled={selected.size === 0} onClick={() => store.select([])}>
          <Trans>Clear selection</Trans>
        </Button>
      </div>
      <table className="ts-poi-table__grid" aria-label={t`POIs`} aria-rowcount={rows.length + 1}>
        <thead>
          <tr
            className="ts-poi-table__row ts-poi-table__row--head"
            aria-rowindex={1}
            style={{ gridTemplateColumns: gridTemplate }}
          >
            <th scope="col">
              <input
                type="checkbox"
                aria-label={t`Select all shown POIs`}
                checked={isAllSelected}
                disabled={rows.length === 0}
                onChange={(event) => {
                  const shown = new Set(rows.map((row) => row.id))
                  const others = [...selected].filter((id) => !shown.has(id))
                  store.select(event.target.checked ? [...others, ...shown] : others)
                }}
              />
            </th>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={
                  sort.key === column.key
                    ? sort.direction === 'asc'
                      ? 'ascending'
                      : 'descending'
                    : 'none'
                }
              >
                <button type="button" onClick={() => sortBy(column.key)}>
                  {column.label}
                  {sort.key === column.key && (sort.direction === 'asc' ? ' ▲' : ' ▼')}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        {rows.length === 0 ? (
          <tbody>
            <tr>
              <td>
                <EmptyState
                  title={
                    snapshot.count === 0 ? (
                      <Trans>No POIs yet</Trans>
                    ) : (
                      <Trans>No POI matches.</Trans>
                    )
                  }
                />
              </td>
            </tr>
          </tbody>
        ) : (
          <tbody
            ref={scrollRef}
            className="ts-poi-table__scroll"
            // The rows are placed absolutely; ::after gives the body their full height.
            style={{
              height: heightPx,
              ['--ts-rows-height' as string]: `${virtual.totalHeightPx}px`,
            }}
          >
            {rows.slice(virtual.start, virtual.end).map((entry, offset) => {
              const index = virtual.start + offset
              const template = store.template(entry.templateId)
              const isChosen = selected.has(entry.id)
              return (
                <tr
                  key={entry.id}
                  aria-rowindex={index + 2}
                  data-selected={isChosen || undefined}
                  className="ts-poi-table__row"
                  style={{
                    top: index * poiTableRowHeightPx,
                    height: poiTableRowHeightPx,
                    gridTemplateColumns: gridTemplate,
                  }}
                >
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t`Select ${entry.name}`}
                      checked={isChosen}
                      onChange={(event) => toggle(entry.id, event.target.checked)}
                    />
                  </td>
                  <td className="ts-poi-table__name">
                    <PoiPicture template={template} />
                    {entry.name}
                  </td>
                  <td>{template?.name ?? ''}</td>
                  <td>{template?.type ?? ''}</td>
                  <td>{entry.devicecode}</td>
                  {isBuilding && <td>{entry.floorId ?? ''}</td>}
                  <td>{`${entry.heading}°`}</td>
                </tr>
              )
            })}
          </tbody>
        )}
      </table>
      <PoiBulkEditDialog
        isOpen={isEditing}
        ids={[...selected]}
        store={store}
        onClose={() => setIsEditing(false)}
      />
    </section>
  )
}

/** What a bulk edit sets; empty fields stay as they are. */
export interface PoiBulkEdit {
  templateId: string
  heading: string
  propertyColumn: string
  propertyValue: string
}

/** The changes of a bulk edit, or the problem with it. */
export function bulkChangesOf(
  edit: PoiBulkEdit,
  store: PoiStore,
): { changes: PoiChanges } | { problem: 'nothing' | 'heading' | 'property' } {
  const changes: PoiChanges = {}
  if (edit.templateId) {
    const template = store.template(edit.templateId)
    if (template) changes.template = template
  }
  if (edit.heading.trim() !== '') {
    const heading = Number(edit.heading)
    if (!Number.isFinite(heading) || heading < -180 || heading > 180) return { problem: 'heading' }
    changes.heading = heading
  }
  if (edit.propertyColumn.trim() !== '') {
    const column = edit.propertyColumn.trim()
    if (!propertyColumnPattern.test(column)) return { problem: 'property' }
    changes.customs = [{ property_column: column, column_value: edit.propertyValue }]
  }
  if (Object.keys(changes).length === 0) return { problem: 'nothing' }
  return { changes }
}

/** The bulk edit form of the table: template, heading and one custom property. */
function PoiBulkEditDialog({
  isOpen,
  ids,
  store,
  onClose,
}: {
  isOpen: boolean
  ids: string[]
  store: PoiStore
  onClose: () => void
}) {
  const { t } = useLingui()
  const empty: PoiBulkEdit = { templateId: '', heading: '', propertyColumn: '', propertyValue: '' }
  const [edit, setEdit] = useState<PoiBulkEdit>(empty)
  const [problem, setProblem] = useState<string | null>(null)
  const problems = {
    nothing: t`Fill in at least one field to change.`,
    heading: t`The heading must be between -180 and 180 degrees.`,
    property: t`The property name may hold only letters, digits and underscores.`,
  }

  async function submit() {
    const result = bulkChangesOf(edit, store)
    if ('problem' in result) {
      setProblem(problems[result.problem])
      return
    }
    setProblem(null)
    if (await store.updateMany(ids.map((id) => ({ id, changes: result.changes })))) {
      setEdit(empty)
      onClose()
    }
  }

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) {
          setProblem(null)
          onClose()
        }
      }}
      title={t`Edit ${ids.length} POIs`}
      submitLabel={<Trans>Modify</Trans>}
      onSubmit={submit}
    >
      <p className="ts-poi-form__empty">
        <Trans>Empty fields stay as they are.</Trans>
      </p>
      <label className="ts-poi-table__select">
        <span>
          <Trans>Template</Trans>
        </span>
        <select
          value={edit.templateId}
          onChange={(event) => setEdit({ ...edit, templateId: event.target.value })}
        >
          <option value="">{t`Unchanged`}</option>
          {store.templates().map((template) => (
            <option key={template.id} value={template.id}>
              {templateNameText(template)}
            </option>
          ))}
        </select>
      </label>
      <TextField
        label={<Trans>Heading (°)</Trans>}
        inputMode="decimal"
        value={edit.heading}
        onChange={(event) => setEdit({ ...edit, heading: event.target.value })}
      />
      <TextField
        label={<Trans>Custom property name</Trans>}
        value={edit.propertyColumn}
        onChange={(event) => setEdit({ ...edit, propertyColumn: event.target.value })}
      />
      <TextField
        label={<Trans>Custom property value</Trans>}
        value={edit.propertyValue}
        onChange={(event) => setEdit({ ...edit, propertyValue: event.target.value })}
      />
      {problem && (
        <p className="ts-poi-form__alert" role="alert">
          {problem}
        </p>
      )}
    </FormDialog>
  )
}
