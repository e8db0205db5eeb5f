import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { TourViewpointRecord } from '../../../api/view-tour'
import { reasonText } from '../../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState, TextField, toast } from '../../../ui'
import { useCanEditCityProject } from '../city-context'
import { useCityServices } from '../city-services'
import { ReadOnlyHint } from '../ReadOnlyHint'
import '../../../components/region-list/region-list.css'
import './draw.css'

/** Seconds a flight from one viewpoint to the next takes (the tab's choice, not saved). */
const transitionChoices = [2, 4, 8] as const

/**
 * The view tour tab (SPEC §2 city sub-tab "view tour", §9 tour modes 0 open / 2 close; issue
 * 18): save the camera's view as a viewpoint (appended to the project's tour, with how long the
 * tour stays on it), then open the tour: the engine flies from viewpoint to viewpoint with
 * smooth transitions, round and round, until it is closed (`tour.open` / `tour.close`).
 */
export function TourTab({ projectId }: { projectId: string }) {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const canEdit = useCanEditCityProject()
  const { camera, tour } = useSnapshot(sceneStore).city
  const [viewpoints, setViewpoints] = useState<TourViewpointRecord[]>([])
  const [name, setName] = useState('')
  const [dwell, setDwell] = useState('3')
  const [transition, setTransition] = useState<number>(transitionChoices[1])
  const [isBusy, setIsBusy] = useState(false)
  const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 })

  useEffect(() => {
    let isCurrent = true
    services.tour.find(projectId).then(
      (found) => {
        if (isCurrent) setViewpoints(found)
      },
      (error: unknown) => {
        if (isCurrent) toast.error(reasonText(error))
      },
    )
    return () => {
      isCurrent = false
    }
  }, [services, projectId])

  // Leaving the tab closes the tour: the camera is the user's again.
  useEffect(
    () => () => {
      engine.run('tour.close').catch(() => {})
    },
    [engine],
  )

  const dwellSeconds = Number.parseFloat(dwell)
  const isDwellValid = Number.isFinite(dwellSeconds) && dwellSeconds >= 0 && dwellSeconds <= 600
  const isOpen = tour.mode === 0

  async function addCurrentView() {
    setIsBusy(true)
    try {
      const saved = await services.tour.add({
        project_id: projectId,
        name: name.trim() || `#${viewpoints.length + 1}`,
        lng: camera.lng,
        lat: camera.lat,
        zoom: camera.zoom,
        pitch: camera.pitch,
        bearing: camera.bearing,
        dwell_seconds: dwellSeconds,
      })
      setViewpoints((current) => [...current, saved])
      setName('')
    } catch (error) {
      toast.error(reasonText(error))
    } finally {
      setIsBusy(false)
    }
  }

  async function remove(viewpoint: TourViewpointRecord) {
    if (!(await confirmDelete({ itemName: viewpoint.name }))) return
    try {
      await services.tour.remove(viewpoint.id)
      // the server closes up the order; so does the list
      setViewpoints((current) =>
        current
          .filter((item) => item.id !== viewpoint.id)
          .map((item, index) => ({ ...item, seq: index + 1 })),
      )
    } catch (error) {
      toast.error(reasonText(error))
    }
  }

  function openTour() {
    engine
      .run('tour.open', {
        viewpoints: viewpoints.map((item) => ({
          lng: item.lng,
          lat: item.lat,
          zoom: item.zoom,
          pitch: item.pitch,
          bearing: item.bearing,
          dwellSeconds: item.dwell_seconds,
        })),
        transitionSeconds: transition,
      })
      .catch((error: unknown) => toast.error(reasonText(error)))
  }

  return (
    <div className="ts-city-tab ts-draw" data-testid="city-tour-tab">
      <ReadOnlyHint />
      <p className="ts-city-tab__hint">
        <Trans>
          Save views of the map in order; opening the tour flies from one to the next and starts
          again after the last.
        </Trans>
      </p>
      {canEdit && (
        <form
          className="ts-region__form"
          aria-label={t`New viewpoint`}
          onSubmit={(event) => {
            event.preventDefault()
            if (isDwellValid && !isBusy) void addCurrentView()
          }}
        >
          <TextField
            label={<Trans>Name</Trans>}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
          <TextField
            label={<Trans>Stay (s)</Trans>}
            type="number"
            min={0}
            max={600}
            step="any"
            value={dwell}
            onChange={(event) => setDwell(event.target.value)}
          />
          <Button type="submit" variant="primary" disabled={!isDwellValid || isBusy}>
            <Trans>Add the current view</Trans>
          </Button>
        </form>
      )}
      <fieldset className="ts-draw__types">
        {/* seen: three bare "2 s / 4 s / 8 s" buttons beside the stay field did not say what
            they set */}
        <legend className="ts-field__label ts-draw__legend">{t`Transition`}</legend>
        {transitionChoices.map((seconds) => (
          <Button
            key={seconds}
            aria-pressed={transition === seconds}
            variant={transition === seconds ? 'primary' : 'secondary'}
            onClick={() => setTransition(seconds)}
          >
            <Trans>{seconds} s</Trans>
          </Button>
        ))}
      </fieldset>
      <div className="ts-city-details__actions">
        {isOpen ? (
          <Button onClick={() => engine.run('tour.close').catch(() => {})}>
            <Trans>Close the tour</Trans>
          </Button>
        ) : (
          <Button variant="primary" disabled={viewpoints.length === 0} onClick={openTour}>
            <Trans>Open the tour</Trans>
          </Button>
        )}
      </div>
      {isOpen && (
        <p className="ts-region__item-measure" role="status" data-testid="tour-status">
          <Trans>
            Viewpoint {tour.index + 1} of {tour.count}
          </Trans>
        </p>
      )}
      <h3 className="ts-city-tab__heading">
        <Trans>Viewpoints</Trans>
      </h3>
      {viewpoints.length === 0 ? (
        <EmptyState title={<Trans>No viewpoints yet</Trans>} />
      ) : (
        <ol className="ts-region__list" data-testid="tour-list">
          {viewpoints.map((viewpoint, index) => (
            <li
              key={viewpoint.id}
              className="ts-region__item"
              data-testid="tour-item"
              aria-current={isOpen && tour.index === index ? 'step' : undefined}
            >
              <div className="ts-region__item-text">
                <span className="ts-region__item-name">
                  {viewpoint.seq}. {viewpoint.name}
                </span>
                <span className="ts-region__item-measure">
                  <Trans>
                    zoom {number.format(viewpoint.zoom)} · stays{' '}
                    {number.format(viewpoint.dwell_seconds)} s
                  </Trans>
                </span>
              </div>
              <div className="ts-region__item-actions">
                <Button
                  aria-label={t`Fly to ${viewpoint.name}`}
                  onClick={() =>
                    engine
                      .run('city.flyTo', {
                        lng: viewpoint.lng,
                        lat: viewpoint.lat,
                        zoom: viewpoint.zoom,
                        pitch: viewpoint.pitch,
                        bearing: viewpoint.bearing,
                      })
                      .catch(() => {})
                  }
                >
                  <Trans>Fly to</Trans>
                </Button>
                {canEdit && (
                  <Button
                    variant="danger"
                    aria-label={t`Delete ${viewpoint.name}`}
                    onClick={() => void remove(viewpoint)}
                  >
                    <Trans>Delete</Trans>
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
