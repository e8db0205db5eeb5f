import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { updateProject } from '../../../api/project'
import { AnchorFitView } from '../../../components/anchors/AnchorFitView'
import {
  AnchorForm,
  type AnchorFormValues,
  emptyAnchorForm,
} from '../../../components/anchors/AnchorForm'
import { AnchorList } from '../../../components/anchors/AnchorList'
import {
  type AnchorCalls,
  defaultAnchorCalls,
  headingOf,
  useSavedAnchors,
} from '../../../components/anchors/use-saved-anchors'
import '../../../components/anchors/anchors.css'
import '../../../components/region-list/region-list.css'
import { reasonText } from '../../../components/feedback/error-text'
import { MapPickerDialog } from '../../../components/map-picker/MapPickerDialog'
import { useProjectPermissions } from '../../../components/project/project-permissions'
import { Button, confirmDelete, Tabs, toast } from '../../../ui'
import { buildingSession } from '../building-session'
import { anchorPick, relativeOfScenePoint } from './location-pick'
import { defaultLocationPoiCalls, type LocationPoiCalls, LocationPoisTab } from './LocationPoisTab'

/** Props of {@link LocationPanel}. */
export interface LocationPanelProps {
  /** The anchor calls (tests pass in-memory ones). */
  calls?: AnchorCalls
  /** Saves the project's location (tests pass their own). */
  saveProjectCenter?: typeof updateProject
  /** The location POI calls (tests pass in-memory ones). */
  locationPoiCalls?: LocationPoiCalls
}

/**
 * The building editor's location module (`/bim4/location`; SPEC §2 space sidebar "Location",
 * §3 "Anchor point", §5, §8; issue 18). Each anchor pairs a point picked in the model (or typed,
 * metres) with a longitude and latitude picked on the map or typed, and is saved (`/poi`
 * location mapping). From three anchors not on one line the same solver as the city's anchor
 * tab fits scale, rotation and translation by least squares and shows each anchor's residual in
 * metres; "Place the building here" saves the solved origin as the project's location, with
 * the heading and scale of the fit (its placement, shown here). Its second tab holds the
 * building's location POIs (positioned objects).
 */
export function LocationPanel({
  calls = defaultAnchorCalls,
  saveProjectCenter = updateProject,
  locationPoiCalls = defaultLocationPoiCalls,
}: LocationPanelProps) {
  const { t } = useLingui()
  return (
    <div data-testid="bim4-location">
      <Tabs
        label={t`Location`}
        items={[
          {
            value: 'anchors',
            label: <Trans>Anchor points</Trans>,
            content: <BuildingAnchors calls={calls} saveProjectCenter={saveProjectCenter} />,
          },
          {
            value: 'objects',
            label: <Trans>Positioned objects</Trans>,
            content: <LocationPoisTab calls={locationPoiCalls} />,
          },
        ]}
      />
    </div>
  )
}

/** The anchor points of the building's model, their fit and "Place the building here". */
function BuildingAnchors({
  calls,
  saveProjectCenter,
}: Required<Pick<LocationPanelProps, 'calls' | 'saveProjectCenter'>>) {
  const { t, i18n } = useLingui()
  const session = useSnapshot(buildingSession)
  const pick = useSnapshot(anchorPick)
  const { canEdit } = useProjectPermissions(session.project)
  const saved = useSavedAnchors(calls, session.projectId, '')
  const [form, setForm] = useState<AnchorFormValues>(emptyAnchorForm)
  const [isMapOpen, setIsMapOpen] = useState(false)
  const [isPlacing, setIsPlacing] = useState(false)
  const isPicking = session.clickPurpose === 'anchor'
  const center = session.project?.project_center ?? null
  const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 3 })

  // A point picked in the model fills the relative coordinates (kept: the user may be typing
  // the rest of the form).
  useEffect(() => {
    if (pick.sequence === 0 || !pick.point) return
    const relative = relativeOfScenePoint(pick.point)
    setForm((current) => ({
      ...current,
      x: String(relative.x),
      y: String(relative.y),
      z: String(relative.z),
    }))
  }, [pick.sequence, pick.point])

  // Leaving the module ends a pick that was not made, and forgets the last one.
  useEffect(
    () => () => {
      if (buildingSession.clickPurpose === 'anchor') buildingSession.clickPurpose = 'inspect'
      anchorPick.point = null
    },
    [],
  )

  const result = saved.fit
  return (
    <div className="ts-anchors" data-testid="bim4-anchors">
      <p className="ts-anchors__hint">
        <Trans>
          Pair at least three points of the model with their longitude and latitude: two fix the
          distance, the third the orientation.
        </Trans>
      </p>
      {canEdit && (
        <AnchorForm
          form={form}
          onChange={setForm}
          count={saved.anchors.length}
          isBusy={saved.isBusy}
          hasHeight
          onSubmit={async (anchor) => {
            if (await saved.add(anchor)) setForm(emptyAnchorForm)
          }}
          tools={
            <>
              <Button
                aria-pressed={isPicking}
                onClick={() => {
                  buildingSession.clickPurpose = isPicking ? 'inspect' : 'anchor'
                }}
              >
                {isPicking ? <Trans>Cancel picking</Trans> : <Trans>Pick in the model</Trans>}
              </Button>
              <Button onClick={() => setIsMapOpen(true)}>
                <Trans>Pick on the map</Trans>
              </Button>
            </>
          }
        />
      )}
      <h3 className="ts-anchors__heading">
        <Trans>Anchor points</Trans>
      </h3>
      <AnchorList
        anchors={saved.anchors}
        fit={result.ok ? result.fit : null}
        isBusy={saved.isBusy}
        {...(canEdit
          ? {
              onDelete: async (anchor) => {
                if (await confirmDelete({ itemName: anchor.name })) await saved.remove(anchor.id)
              },
            }
          : {})}
      />
      {center && (
        <p className="ts-anchors__hint" data-testid="building-location">
          <Trans>
            The project's location: {center.lng.toFixed(7)}, {center.lat.toFixed(7)}
          </Trans>
          {center.heading !== undefined && center.scale !== undefined && (
            <>
              {' '}
              <span data-testid="building-placement">
                <Trans>
                  (heading {number.format(center.heading)}°, scale {number.format(center.scale)})
                </Trans>
              </span>
            </>
          )}
        </p>
      )}
      <AnchorFitView count={saved.anchors.length} result={result}>
        {canEdit && result.ok && session.projectId && (
          <Button
            variant="primary"
            disabled={isPlacing}
            onClick={async () => {
              const projectId = session.projectId
              if (!projectId) return
              setIsPlacing(true)
              try {
                const [lng, lat] = result.fit.originLngLat
                const project = await saveProjectCenter({
                  id: projectId,
                  project_center: {
                    lng,
                    lat,
                    heading: headingOf(result.fit.rotationAtOriginDegrees),
                    scale: result.fit.scale,
                  },
                })
                if (buildingSession.projectId === projectId) buildingSession.project = project
                toast.success(t`The building is placed.`)
              } catch (error) {
                toast.error(reasonText(error))
              } finally {
                setIsPlacing(false)
              }
            }}
          >
            <Trans>Place the building here</Trans>
          </Button>
        )}
      </AnchorFitView>
      <MapPickerDialog
        isOpen={isMapOpen}
        onOpenChange={setIsMapOpen}
        initial={
          form.lng && form.lat
            ? {
                location: { lng: Number(form.lng), lat: Number(form.lat) },
                address: '',
              }
            : center
              ? { location: { lng: center.lng, lat: center.lat }, address: '' }
              : null
        }
        onConfirm={(picked) => {
          setForm((current) => ({
            ...current,
            lng: picked.location.lng.toFixed(7),
            lat: picked.location.lat.toFixed(7),
          }))
          setIsMapOpen(false)
        }}
      />
    </div>
  )
}
