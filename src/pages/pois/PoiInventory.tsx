import { Trans, useLingui } from '@lingui/react/macro'
import { type KeyboardEvent, useDeferredValue, useMemo, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { errorText } from '../../components/feedback/error-text'
import {
  type PoiEntry,
  type PoiStore,
  type PoiTemplateInfo,
  poiStore,
  templatePictureUrl,
} from '../../state/pois'
import { Button, confirmDelete, EmptyState, ErrorState, Spinner, TextField } from '../../ui'
import { PoiForm } from './PoiForm'
import { type PoiScreenServices, serverPoiScreenServices } from './poi-services'
import { useVirtualWindow } from './virtual-window'
import './pois.css'

/** Height of one inventory row, px (fixed, so 100,000 rows scroll as a window). */
export const inventoryRowHeightPx = 56

/** The picture of a POI's template, with its kind (2D/3D) for readers and as a badge. */
export function PoiPicture({ template }: { template: PoiTemplateInfo | undefined }) {
  const url = template ? templatePictureUrl(template) : ''
  const kind = template?.type ?? '2D'
  return (
    <span className="ts-poi-picture">
      {url ? <img src={url} alt="" loading="lazy" /> : <span className="ts-poi-picture__none" />}
      <span className="ts-poi-picture__kind">{kind}</span>
    </span>
  )
}

/** Whether a POI matches a search: name, device code or template name, any case. */
export function matchesPoiSearch(
  entry: PoiEntry,
  template: PoiTemplateInfo | undefined,
  query: string,
): boolean {
  const needle = query.trim().toLocaleLowerCase()
  if (needle === '') return true
  return (
    entry.name.toLocaleLowerCase().includes(needle) ||
    entry.devicecode.toLocaleLowerCase().includes(needle) ||
    (template?.name.toLocaleLowerCase().includes(needle) ?? false)
  )
}

/** Props of {@link PoiInventory}. */
export interface PoiInventoryProps {
  store?: PoiStore
  services?: PoiScreenServices
  /** Only POIs this accepts (e.g. the monomer POIs of a building, the POIs of one floor). */
  filter?: (entry: PoiEntry) => boolean
  /** Height of the list's scroll area, px. */
  heightPx?: number
}

/**
 * The POI inventory (SPEC §2 "POI items show a 2D or 3D picture, a name, a device code and
 * edit/delete"): the open project's POIs from the POI store, searchable, a window of rows at a
 * time so 100,000 scroll smoothly. Choosing a row selects the POI and flies the camera to it;
 * edit opens the POI form, delete asks first. Keyboard: ↑/↓ move between rows, Enter flies.
 */
export function PoiInventory({
  store = poiStore,
  services = serverPoiScreenServices,
  filter,
  heightPx = 480,
}: PoiInventoryProps) {
  const { t } = useLingui()
  const snapshot = useSnapshot(store.state)
  const [query, setQuery] = useState('')
  const deferredQuery = useDeferredValue(query)
  const [editingId, setEditingId] = useState<string | null>(null)
  const [activeIndex, setActiveIndex] = useState(0)
  const scrollRef = useRef<HTMLDivElement>(null)
  const revision = snapshot.revision

  const rows = useMemo(() => {
    void revision
    return store
      .entries()
      .filter(
        (entry) =>
          (!filter || filter(entry)) &&
          matchesPoiSearch(entry, store.template(entry.templateId), deferredQuery),
      )
  }, [store, revision, filter, deferredQuery])
  const virtual = useVirtualWindow(scrollRef, rows.length, inventoryRowHeightPx, heightPx)
  const selected = new Set(snapshot.selectedIds)

  const fly = (entry: PoiEntry) => {
    store.select([entry.id])
    store.flyTo(entry.id)
  }

  const remove = async (entry: PoiEntry) => {
    if (await confirmDelete({ itemName: entry.name })) await store.remove([entry.id])
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }
    const move = moves[event.key]
    if (move === undefined || rows.length === 0) return
    // Only when a row (not an edit/delete button or the search) has focus.
    if (!(event.target as HTMLElement).dataset.poiRow) return
    event.preventDefault()
    const next = Math.max(0, Math.min(rows.length - 1, activeIndex + move))
    setActiveIndex(next)
    virtual.scrollToIndex(next)
    requestAnimationFrame(() => {
      scrollRef.current?.querySelector<HTMLElement>(`[data-poi-row="${next}"]`)?.focus()
    })
  }

  let body: React.ReactNode
  if (snapshot.status === 'loading' || snapshot.status === 'idle') {
    body = (
      <div className="ts-poi-list__state">
        <Spinner label={t`Loading POIs…`} />
      </div>
    )
  } else if (snapshot.status === 'error') {
    body = (
      <ErrorState
        title={<Trans>The POIs could not be loaded</Trans>}
        message={errorText(snapshot.loadError)}
        onRetry={() => void store.reload()}
      />
    )
  } else if (rows.length === 0) {
    body =
      deferredQuery.trim() !== '' ? (
        <EmptyState title={<Trans>No POI matches “{deferredQuery}”.</Trans>} />
      ) : (
        <EmptyState
          title={<Trans>No POIs yet</Trans>}
          description={<Trans>Choose a template and click in the scene to place one.</Trans>}
        />
      )
  } else {
    body = (
      // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the row buttons inside
      <div
        ref={scrollRef}
        className="ts-poi-list__scroll"
        style={{ height: heightPx }}
        onKeyDown={handleKeyDown}
      >
        <ul
          className="ts-poi-list__rows"
          style={{ height: virtual.totalHeightPx }}
          aria-label={t`POI inventory`}
        >
          {rows.slice(virtual.start, virtual.end).map((entry, offset) => {
            const index = virtual.start + offset
            const template = store.template(entry.templateId)
            return (
              <li
                key={entry.id}
                className="ts-poi-item"
                aria-setsize={rows.length}
                aria-posinset={index + 1}
                data-selected={selected.has(entry.id) || undefined}
                style={{ top: index * inventoryRowHeightPx, height: inventoryRowHeightPx }}
              >
                <button
                  type="button"
                  className="ts-poi-item__main"
                  data-poi-row={index}
                  tabIndex={index === activeIndex ? 0 : -1}
                  onFocus={() => setActiveIndex(index)}
                  onClick={() => fly(entry)}
                  aria-label={t`Fly to ${entry.name}`}
                  aria-current={selected.has(entry.id) || undefined}
                >
                  <PoiPicture template={template} />
                  <span className="ts-poi-item__text">
                    <span className="ts-poi-item__name">{entry.name}</span>
                    <span className="ts-poi-item__code">
                      {entry.devicecode || <Trans>No device code</Trans>}
                    </span>
                  </span>
                  {entry.isPending && <Spinner sizePx={12} label={t`Saving…`} />}
                </button>
                <Button
                  variant="ghost"
                  aria-label={t`Edit ${entry.name}`}
                  onClick={() => setEditingId(entry.id)}
                >
                  <Trans>Edit</Trans>
                </Button>
                <Button
                  variant="ghost"
                  aria-label={t`Delete ${entry.name}`}
                  onClick={() => void remove(entry)}
                >
                  <Trans>Delete</Trans>
                </Button>
              </li>
            )
          })}
        </ul>
      </div>
    )
  }

  return (
    <section className="ts-poi-list" aria-label={t`POI inventory`}>
      <TextField
        label={<Trans>Search POIs</Trans>}
        type="search"
        value={query}
        placeholder={t`Name, device code or template`}
        onChange={(event) => {
          setQuery(event.target.value)
          setActiveIndex(0)
        }}
      />
      {snapshot.status === 'ready' && (
        <p className="ts-poi-list__count" aria-live="polite">
          <Trans>
            {rows.length} of {snapshot.count} POIs
          </Trans>
        </p>
      )}
      {body}
      <PoiForm
        target={editingId ? { mode: 'modify', poiId: editingId } : null}
        onClose={() => setEditingId(null)}
        store={store}
        services={services}
      />
    </section>
  )
}
