import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import { useSnapshot } from 'valtio'
import { eventLinkKinds } from '../../../../contract/event-links'
import type { AreaDraw } from '../../../../contract/draw'
import { findAreaDraws } from '../../../api/draw'
import type { EventLink, EventLinkKind, EventLinkTargetKind } from '../../../api/event-links'
import * as linksApi from '../../../api/event-links'
import { showErrorToast } from '../../../components/feedback/error-text'
import { type PoiStore, poiStore } from '../../../state/pois'
import { Button, EmptyState, Select, Tabs, TextField } from '../../../ui'
import { linkageStore, loadLinkage } from './linkage-store'
import './iot.css'

/** The event kinds' names (SPEC §2 template manager "events": link, alarm, offline, fault). */
export const eventKindNames: Record<EventLinkKind, MessageDescriptor> = {
  link: msg`Linkage`,
  alarm: msg`Alarm`,
  offline: msg`Offline`,
  fault: msg`Fault`,
}

/** POIs a "link" list shows at once; the filter finds the others. */
const shownCandidates = 50

/**
 * SPEC §4's linkage setting: a list of links to show instead of the saved ones (it forces the
 * POI linkage tab), or `noSetting` to show (and reload) the saved linkage.
 */
export type LinkageSetting = readonly EventLink[] | 'noSetting'

/**
 * POI → event linkage (issue 17 item 6; SPEC §2 "POI linkage panel", §4): choose a source POI
 * (the one selected in the scene by default) and its event, then link it to areas (tab Area, 0)
 * or to POIs (tab POI linkage, 1). When the event fires, the linked POIs open — a camera plays
 * its video on the stage — and the linked areas are named there (use-iot-live.ts).
 */
export function EventLinkagePanel({
  setting = 'noSetting',
  store = poiStore,
}: {
  setting?: LinkageSetting
  /** The POIs to choose from (the editor's store). */
  store?: PoiStore
}) {
  const { t, i18n } = useLingui()
  const pois = useSnapshot(store.state)
  const linkage = useSnapshot(linkageStore)
  const projectId = pois.projectId
  const entries = useMemo(() => (pois.revision >= 0 ? store.entries() : []), [store, pois.revision])
  const [sourceId, setSourceId] = useState<string | null>(pois.selectedIds[0] ?? null)
  const [event, setEvent] = useState<EventLinkKind>('alarm')
  const [tab, setTab] = useState<EventLinkTargetKind>(setting === 'noSetting' ? 'area' : 'poi')
  const [filter, setFilter] = useState('')
  const [areas, setAreas] = useState<AreaDraw[] | null>(null)
  const [busy, setBusy] = useState<string | null>(null)

  // SPEC §4: a supplied setting forces the linkage tab; noSetting reloads the saved linkage
  useEffect(() => {
    if (setting !== 'noSetting') setTab('poi')
    else if (projectId) void loadLinkage(projectId).catch(showErrorToast)
  }, [setting, projectId])

  useEffect(() => {
    if (!projectId) return undefined
    let isCurrent = true
    findAreaDraws(projectId, 'area')
      .then((found) => isCurrent && setAreas(found))
      .catch((error: unknown) => {
        if (isCurrent) setAreas([])
        showErrorToast(error)
      })
    return () => {
      isCurrent = false
    }
  }, [projectId])

  if (!projectId) return null
  const source = sourceId === null ? undefined : entries.find((entry) => entry.id === sourceId)
  const links = (setting === 'noSetting' ? linkage.links : setting).filter(
    (link) => link.source === sourceId && link.event === event,
  )
  const linkedIds = new Set(links.map((link) => `${link.target_kind}:${link.target}`))

  async function add(targetKind: EventLinkTargetKind, target: string) {
    if (!sourceId || busy) return
    setBusy(target)
    try {
      const added = await linksApi.addEventLink({
        source: sourceId,
        event,
        target_kind: targetKind,
        target,
      })
      linkageStore.links.push(added)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusy(null)
    }
  }

  async function remove(link: EventLink) {
    if (busy) return
    setBusy(link.id)
    try {
      await linksApi.deleteEventLink(link.id)
      linkageStore.links = linkageStore.links.filter((known) => known.id !== link.id)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusy(null)
    }
  }

  const linkedList = (kind: EventLinkTargetKind) => {
    const ofKind = links.filter((link) => link.target_kind === kind)
    if (ofKind.length === 0) return <p className="ts-bim4-muted">{t`Nothing linked yet.`}</p>
    return (
      <ul className="ts-plain-list ts-iot-list" aria-label={t`Linked`}>
        {ofKind.map((link) => (
          <li key={link.id} className="ts-linkage-item" data-testid="linkage-linked">
            <span>{link.target_name}</span>
            {setting === 'noSetting' && (
              <Button
                variant="ghost"
                onClick={() => void remove(link)}
                isBusy={busy === link.id}
                aria-label={t`Unlink ${link.target_name}`}
              >
                <Trans>Unlink</Trans>
              </Button>
            )}
          </li>
        ))}
      </ul>
    )
  }

  const needle = filter.trim().toLowerCase()
  const candidates = entries
    .filter((entry) => entry.id !== sourceId && !linkedIds.has(`poi:${entry.id}`))
    .filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle))
  const areaCandidates = (areas ?? []).filter((area) => !linkedIds.has(`area:${area.id}`))

  return (
    <section className="ts-iot" data-testid="event-linkage">
      <Select
        label={<Trans>Source POI</Trans>}
        placeholder={t`Choose a POI`}
        options={entries.map((entry) => ({ value: entry.id, label: entry.name }))}
        value={source?.id ?? null}
        onValueChange={setSourceId}
      />
      <Select<EventLinkKind>
        label={<Trans>Event</Trans>}
        options={eventLinkKinds.map((kind) => ({
          value: kind,
          label: i18n._(eventKindNames[kind]),
        }))}
        value={event}
        onValueChange={setEvent}
      />
      {!source ? (
        <EmptyState title={<Trans>Choose the POI whose event is linked.</Trans>} />
      ) : (
        <Tabs<EventLinkTargetKind>
          label={t`Linkage targets`}
          value={tab}
          onValueChange={setTab}
          items={[
            {
              value: 'area',
              label: <Trans>Area</Trans>,
              isDisabled: setting !== 'noSetting',
              content: (
                <div className="ts-linkage-tab">
                  {linkedList('area')}
                  {areas !== null && areas.length === 0 ? (
                    <p className="ts-bim4-muted">
                      <Trans>No areas are drawn in this project (area division).</Trans>
                    </p>
                  ) : (
                    <ul className="ts-plain-list ts-iot-list" aria-label={t`Areas`}>
                      {areaCandidates.map((area) => (
                        <li key={area.id} className="ts-linkage-item">
                          <span>{area.name}</span>
                          <Button
                            variant="secondary"
                            onClick={() => void add('area', area.id)}
                            isBusy={busy === area.id}
                            aria-label={t`Link ${area.name}`}
                          >
                            <Trans>Link</Trans>
                          </Button>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              ),
            },
            {
              value: 'poi',
              label: <Trans>POI linkage</Trans>,
              content: (
                <div className="ts-linkage-tab">
                  {linkedList('poi')}
                  {setting === 'noSetting' && (
                    <>
                      <TextField
                        label={<Trans>Find a POI</Trans>}
                        value={filter}
                        onChange={(change) => setFilter(change.target.value)}
                      />
                      <ul className="ts-plain-list ts-iot-list" aria-label={t`POIs to link`}>
                        {candidates.slice(0, shownCandidates).map((entry) => (
                          <li key={entry.id} className="ts-linkage-item">
                            <span>{entry.name}</span>
                            <Button
                              variant="secondary"
                              onClick={() => void add('poi', entry.id)}
                              isBusy={busy === entry.id}
                              aria-label={t`Link ${entry.name}`}
                            >
                              <Trans>Link</Trans>
                            </Button>
                          </li>
                        ))}
                      </ul>
                      {candidates.length > shownCandidates && (
                        <p className="ts-bim4-muted">
                          {t`${candidates.length - shownCandidates} more: type part of a name to find them.`}
                        </p>
                      )}
                    </>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
    </section>
  )
}
