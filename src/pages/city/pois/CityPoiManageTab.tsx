import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { listTemplates, type Template } from '../../../api/templates'
import { poiStore } from '../../../state/pois'
import { Button, EmptyState, Spinner, TextField } from '../../../ui'
import { PoiControl } from '../../pois/PoiControl'
import { useCanEditCityProject } from '../city-context'
import { templateInfoOf } from '../../pois/poi-services'
import { cityPoiUi } from './city-poi-actions'
import './city-pois.css'
import { templateNameText } from '../../../i18n/library-names'

/** Templates listed per page in the chooser. */
const templatePageSize = 100

/**
 * "Manage POI" (SPEC §2 city POI tabs): choose a template, click on the map or on the oblique
 * photography to place POIs of it, click a POI to select it, and move, lift, turn, undo or
 * delete it with the POI control bar (move: drag the selected POI over the map).
 */
export function CityPoiManageTab() {
  const { t } = useLingui()
  const canEdit = useCanEditCityProject()
  const ui = useSnapshot(cityPoiUi)
  const { selectedIds, status } = useSnapshot(poiStore.state)
  // revision: the entry below is read from the store, which changes without proxying records
  useSnapshot(poiStore.state).revision
  const [keyword, setKeyword] = useState('')
  const [templates, setTemplates] = useState<Template[] | null>(null)
  const [templateError, setTemplateError] = useState(false)

  useEffect(() => {
    let isCurrent = true
    const timer = setTimeout(() => {
      listTemplates({ pageNo: 1, pageSize: templatePageSize, keyword: keyword.trim() || undefined })
        .then((page) => {
          if (isCurrent) setTemplates(page.list)
        })
        .catch(() => {
          if (isCurrent) setTemplateError(true)
        })
    }, 200)
    return () => {
      isCurrent = false
      clearTimeout(timer)
    }
  }, [keyword])

  // Leaving the tab stops placing: a click elsewhere in the editor must not add POIs.
  useEffect(
    () => () => {
      cityPoiUi.placingTemplate = null
      cityPoiUi.activeTool = null
    },
    [],
  )

  const selectedId = selectedIds[0] ?? null
  const entry = selectedId ? poiStore.get(selectedId) : undefined
  const placing = ui.placingTemplate

  return (
    <div className="ts-city-tab" data-testid="city-poi-manage">
      {canEdit && (
        <section aria-label={t`Templates`}>
          <p className="ts-city-tab__hint" data-testid="city-poi-placing-hint">
            {placing ? (
              <Trans>
                Placing “{templateNameText(placing)}”: click on the map or on the oblique
                photography.
              </Trans>
            ) : (
              <Trans>
                Choose a template, then click on the map or on the oblique photography to place a
                POI.
              </Trans>
            )}
          </p>
          {placing && (
            <Button onClick={() => (cityPoiUi.placingTemplate = null)}>
              <Trans>Stop placing</Trans>
            </Button>
          )}
          <TextField
            label={t`Search templates`}
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
          />
          {templateError ? (
            <p className="ts-city-tab__hint" role="alert">
              <Trans>The templates could not be loaded.</Trans>
            </p>
          ) : templates === null ? (
            <Spinner label={t`Loading…`} />
          ) : templates.length === 0 ? (
            <EmptyState
              title={<Trans>No templates yet. Create one in the template library.</Trans>}
            />
          ) : (
            <ul className="ts-city-pois__templates" aria-label={t`Templates`}>
              {templates.map((template) => {
                const isChosen = placing?.id === template.id
                const picture = template.iconpath || template.icon_path
                return (
                  <li key={template.id}>
                    <button
                      type="button"
                      className="ts-city-pois__template"
                      aria-pressed={isChosen}
                      onClick={() => {
                        cityPoiUi.activeTool = null
                        cityPoiUi.placingTemplate = isChosen ? null : templateInfoOf(template)
                      }}
                    >
                      {picture ? <img src={picture} alt="" /> : <span aria-hidden="true" />}
                      <span className="ts-city-pois__template-name">
                        {templateNameText(template)}
                      </span>
                      <span className="ts-city-pois__template-kind">{template.type}</span>
                    </button>
                  </li>
                )
              })}
            </ul>
          )}
        </section>
      )}
      <section className="ts-boxed" aria-label={t`Selected POI`} data-testid="city-poi-selected">
        {status === 'loading' ? (
          <Spinner label={t`Loading…`} />
        ) : entry ? (
          <>
            <h3 className="ts-city-details__title">{entry.name}</h3>
            <dl className="ts-city-details__facts">
              <dt>
                <Trans>Template</Trans>
              </dt>
              <dd>{poiStore.template(entry.templateId)?.name ?? ''}</dd>
              <dt>
                <Trans>Longitude</Trans>
              </dt>
              <dd>{entry.position[0].toFixed(6)}</dd>
              <dt>
                <Trans>Latitude</Trans>
              </dt>
              <dd>{entry.position[1].toFixed(6)}</dd>
              <dt>
                <Trans>Height (m)</Trans>
              </dt>
              <dd>{entry.position[2].toFixed(2)}</dd>
              <dt>
                <Trans>Rotation (°)</Trans>
              </dt>
              <dd>{entry.heading}</dd>
            </dl>
            {canEdit && (
              <PoiControl
                activeTool={ui.activeTool}
                onActiveToolChange={(tool) => {
                  cityPoiUi.activeTool = tool
                  if (tool) cityPoiUi.placingTemplate = null
                }}
                onClose={() => {
                  cityPoiUi.activeTool = null
                  poiStore.select([])
                }}
              />
            )}
            {ui.activeTool === 'move' && (
              <p className="ts-city-tab__hint">
                <Trans>
                  Press on the selected POI and drag it over the map or the oblique photography;
                  release to save, Esc to cancel.
                </Trans>
              </p>
            )}
          </>
        ) : (
          <p className="ts-city-tab__hint">
            <Trans>Click a POI on the map to select it.</Trans>
          </p>
        )}
      </section>
    </div>
  )
}
