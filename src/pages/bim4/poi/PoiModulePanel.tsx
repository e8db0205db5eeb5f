import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { Template } from '../../../api/templates'
import { type PoiStore, poiStore, templatePictureUrl } from '../../../state/pois'
import { Button, EmptyState, ErrorState, Spinner, TextField } from '../../../ui'
import { PoiSharedScreens } from '../../pois/PoiSharedScreens'
import {
  type PoiScreenServices,
  serverPoiScreenServices,
  templateInfoOf,
} from '../../pois/poi-services'
import { poiEditing } from './poi-editing'
import { templateNameText } from '../../../i18n/library-names'

/** How many POIs the panel lists (the shared inventory and table page through all of them). */
const listedPoiCount = 200

/**
 * The building editor's POI module (SPEC §2 `/bim4/poi`): choose a template (2D or 3D), then
 * click on the model to place POIs of it; the project's POIs below, a click flies there and
 * selects it (the control bar then acts on it).
 */
export function PoiModulePanel({
  store = poiStore,
  services = serverPoiScreenServices,
}: {
  store?: PoiStore
  /** The screens' server calls (component tests answer them in memory). */
  services?: PoiScreenServices
}) {
  const editing = useSnapshot(poiEditing)
  const placing = editing.placingTemplate
  return (
    <div className="ts-bim4-poi" data-testid="bim4-poi-panel">
      <section className="ts-bim4-poi__section" aria-labelledby="bim4-poi-templates">
        <h2 id="bim4-poi-templates" className="ts-bim4-poi__heading">
          <Trans>Choose a template</Trans>
        </h2>
        {placing && (
          <div className="ts-bim4-poi__placing" role="status">
            <p>
              <Trans>Click on the model to place “{templateNameText(placing)}”.</Trans>
            </p>
            <Button variant="secondary" onClick={() => (poiEditing.placingTemplate = null)}>
              <Trans>Stop placing</Trans>
            </Button>
          </div>
        )}
        <TemplatePicker services={services} />
      </section>
      <section className="ts-bim4-poi__section" aria-labelledby="bim4-poi-list">
        <h2 id="bim4-poi-list" className="ts-bim4-poi__heading">
          <Trans>POIs in this building</Trans>
        </h2>
        <PoiList store={store} />
        <PoiSharedScreens store={store} services={services} />
      </section>
    </div>
  )
}

/** Templates to place from: a search and a list with each template's picture and kind. */
function TemplatePicker({ services }: { services: PoiScreenServices }) {
  const { t } = useLingui()
  const editing = useSnapshot(poiEditing)
  const [keyword, setKeyword] = useState('')
  const [answer, setAnswer] = useState<
    | { status: 'loading' }
    | { status: 'error'; error: unknown }
    | { status: 'ready'; list: Template[] }
  >({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    void attempt
    let isCurrent = true
    setAnswer({ status: 'loading' })
    const timer = setTimeout(() => {
      services
        .listTemplates({ pageNo: 1, pageSize: 50, keyword: keyword.trim() || undefined })
        .then(
          (page) => isCurrent && setAnswer({ status: 'ready', list: page.list }),
          (error: unknown) => isCurrent && setAnswer({ status: 'error', error }),
        )
    }, 200)
    return () => {
      isCurrent = false
      clearTimeout(timer)
    }
  }, [keyword, attempt, services])

  return (
    <div className="ts-bim4-poi__templates">
      <TextField
        label={t`Search templates`}
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
      />
      {answer.status === 'loading' && <Spinner label={t`Loading templates`} />}
      {answer.status === 'error' && (
        <ErrorState message={null} onRetry={() => setAttempt((value) => value + 1)} />
      )}
      {answer.status === 'ready' && answer.list.length === 0 && (
        <EmptyState title={<Trans>No templates yet. Make one under Template.</Trans>} />
      )}
      {answer.status === 'ready' && answer.list.length > 0 && (
        <ul className="ts-bim4-poi__template-list">
          {answer.list.map((template) => {
            const scene = templateInfoOf(template)
            const picture = templatePictureUrl(scene)
            const isChosen = editing.placingTemplate?.id === template.id
            return (
              <li key={template.id}>
                <button
                  type="button"
                  className="ts-bim4-poi__template"
                  aria-pressed={isChosen}
                  data-testid="bim4-poi-template"
                  onClick={() => {
                    poiEditing.placingTemplate = isChosen ? null : scene
                    poiEditing.activeTool = null
                  }}
                >
                  {picture ? (
                    <img src={picture} alt="" className="ts-bim4-poi__picture" />
                  ) : (
                    <span className="ts-bim4-poi__picture" aria-hidden="true" />
                  )}
                  <span className="ts-bim4-poi__name">{templateNameText(template)}</span>
                  <span className="ts-bim4-poi__kind">{template.type}</span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}

/** The project's POIs by name; a click selects the POI and flies the camera to it. */
function PoiList({ store }: { store: PoiStore }) {
  const { t } = useLingui()
  const snapshot = useSnapshot(store.state)
  void snapshot.revision
  if (snapshot.status === 'loading') return <Spinner label={t`Loading POIs`} />
  if (snapshot.status === 'error') {
    return <ErrorState message={null} onRetry={() => void store.reload()} />
  }
  const entries = store.entries()
  if (entries.length === 0) {
    return (
      <EmptyState title={<Trans>No POIs yet. Choose a template and click on the model.</Trans>} />
    )
  }
  const selected = new Set(snapshot.selectedIds)
  return (
    <>
      <p className="ts-bim4-poi__count">
        <Trans>{entries.length} POIs</Trans>
      </p>
      <ul className="ts-bim4-poi__poi-list">
        {entries.slice(0, listedPoiCount).map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              className="ts-bim4-poi__poi"
              aria-pressed={selected.has(entry.id)}
              data-testid="bim4-poi-item"
              onClick={() => {
                store.select([entry.id])
                store.flyTo(entry.id)
              }}
            >
              {entry.name}
              {entry.isPending && (
                <span className="ts-bim4-poi__pending">
                  {' '}
                  <Trans>(saving)</Trans>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </>
  )
}
