import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { CategoryNode } from '../../api/templates'
import { type PoiGrouping, type PoiStore, poiStore } from '../../state/pois'
import { Button, EmptyState, Spinner } from '../../ui'
import { type PoiScreenServices, serverPoiScreenServices } from './poi-services'
import './pois.css'
import { categoryNameText, templateNameText } from '../../i18n/library-names'

/** One group of POI classify. */
export interface PoiGroup {
  id: string
  label: string
  count: number
  kind: '2D' | '3D' | 'mixed'
}

/** Category id → its name path ('3D / Fire / Pumps'), from the category trees. */
export function categoryPaths(trees: readonly CategoryNode[]): Map<string, string> {
  const paths = new Map<string, string>()
  const walk = (nodes: readonly CategoryNode[], prefix: string) => {
    for (const node of nodes) {
      const name = categoryNameText(node)
      const path = prefix ? `${prefix} / ${name}` : name
      paths.set(node.id, path)
      walk(node.children, path)
    }
  }
  walk(trees, '')
  return paths
}

/**
 * The groups of the store's POIs under a grouping, with their counts, sorted by label. A group's
 * kind says whether its templates draw 2D icons, 3D models or both.
 */
export function poiGroups(store: PoiStore, labelOfCategory: (id: string) => string): PoiGroup[] {
  const groups = new Map<string, PoiGroup>()
  for (const entry of store.entries()) {
    const id = store.groupOf(entry)
    const template = store.template(entry.templateId)
    const kind = template?.type ?? '2D'
    const group = groups.get(id)
    if (group) {
      group.count++
      if (group.kind !== kind) group.kind = 'mixed'
      continue
    }
    const label =
      store.state.grouping === 'template'
        ? (template && templateNameText(template)) || entry.templateId
        : labelOfCategory(id)
    groups.set(id, { id, label, count: 1, kind })
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label))
}

/** Props of {@link PoiClassify}. */
export interface PoiClassifyProps {
  store?: PoiStore
  services?: PoiScreenServices
}

/**
 * POI classify (SPEC §2): the open project's POIs grouped by their template's category or by
 * template, with how many each group holds; unticking a group hides its POIs in the scene
 * (`setHiddenPoiGroups`), ticking shows them again. Show all / hide all act on every group.
 */
export function PoiClassify({
  store = poiStore,
  services = serverPoiScreenServices,
}: PoiClassifyProps) {
  const { t } = useLingui()
  const snapshot = useSnapshot(store.state)
  const [paths, setPaths] = useState<Map<string, string> | null>(null)

  useEffect(() => {
    let isCurrent = true
    services
      .findCategoryTree()
      .then((trees) => {
        if (isCurrent) setPaths(categoryPaths(trees))
      })
      .catch(() => {
        // Without the tree the groups keep their ids as names; hiding still works.
        if (isCurrent) setPaths(new Map())
      })
    return () => {
      isCurrent = false
    }
  }, [services])

  const revision = snapshot.revision
  const grouping = snapshot.grouping
  const groups = useMemo(() => {
    void revision
    void grouping
    return poiGroups(store, (id) => paths?.get(id) ?? t`Category ${id}`)
  }, [store, revision, grouping, paths, t])
  const hidden = new Set(snapshot.hiddenGroupIds)

  if (snapshot.status !== 'ready')
    return (
      <div className="ts-poi-list__state">
        <Spinner label={t`Loading POIs…`} />
      </div>
    )

  return (
    <section className="ts-poi-classify" aria-label={t`POI classify`}>
      <fieldset className="ts-poi-classify__grouping">
        <legend>
          <Trans>Group by</Trans>
        </legend>
        {(
          [
            ['category', t`Category`],
            ['template', t`Template`],
          ] as [PoiGrouping, string][]
        ).map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="poi-grouping"
              value={value}
              checked={grouping === value}
              onChange={() => store.setGrouping(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {groups.length === 0 ? (
        <EmptyState title={<Trans>No POIs yet</Trans>} />
      ) : (
        <>
          <div className="ts-poi-classify__actions">
            <Button variant="ghost" onClick={() => store.setHiddenGroups([])}>
              <Trans>Show all</Trans>
            </Button>
            <Button variant="ghost" onClick={() => store.setHiddenGroups(groups.map((g) => g.id))}>
              <Trans>Hide all</Trans>
            </Button>
          </div>
          <ul className="ts-poi-classify__groups" aria-label={t`POI groups`}>
            {groups.map((group) => (
              <li key={group.id}>
                <label className="ts-poi-classify__group">
                  <input
                    type="checkbox"
                    checked={!hidden.has(group.id)}
                    onChange={(event) => store.setGroupHidden(group.id, !event.target.checked)}
                  />
                  <span className="ts-poi-classify__label">{group.label}</span>
                  <span className="ts-poi-classify__kind">
                    {group.kind === 'mixed' ? t`2D and 3D` : group.kind}
                  </span>
                  <span className="ts-poi-classify__count">{group.count}</span>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
