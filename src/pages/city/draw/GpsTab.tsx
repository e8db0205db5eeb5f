import { Trans, useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import { useSnapshot } from 'valtio'
import { LocationPoiForm } from '../../../components/location-pois/LocationPoiForm'
import { LocationPoiList } from '../../../components/location-pois/LocationPoiList'
import { useEngine } from '../../../engine-bridge'
import { Button, toast } from '../../../ui'
import { useCanEditCityProject } from '../city-context'
import { useCityServices } from '../city-services'
import { ReadOnlyHint } from '../ReadOnlyHint'
import { TrackPlaybackBar } from './TrackPlaybackBar'
import { colorOfObject, trackingStore } from './tracking-store'
import '../../../components/region-list/region-list.css'
import './draw.css'

/** How far back a played track reaches. */
const playbackHours = 24

/**
 * The GPS positioning tab (SPEC §2, §3 positioned object, §7 location POIs): add a location POI
 * (a positioned object filed under a category of the location tree, with its coding; its device
 * token is shown once, for `POST /api/v1/{token}/position`), see each one live on the map with
 * heading and trail, fly to it, play its track back on a timeline, delete it; and fly to the
 * user's own position ('browser cannot get location' when the browser refuses).
 */
export function GpsTab({ projectId }: { projectId: string }) {
  const { t } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const canEdit = useCanEditCityProject()
  const { objects, playback, loadState } = useSnapshot(trackingStore)
  const formCalls = useMemo(
    () => ({ add: services.addTrackedObject, findCategories: services.findLocationCategories }),
    [services],
  )

  const refresh = async () => {
    trackingStore.objects = await services.findTrackedObjects(projectId)
  }

  const playTrack = async (objectId: string) => {
    const from = new Date(Date.now() - playbackHours * 3600_000).toISOString()
    try {
      const positions = await services.findTrack(objectId, { from })
      if (positions.length === 0) {
        toast.info(t`This object has no positions yet.`)
        return
      }
      trackingStore.playback = { objectId, positions, index: 0, isPlaying: true, rate: 1 }
      await engine
        .run('city.flyTo', { lng: positions[0]!.lng, lat: positions[0]!.lat, zoom: 17 })
        .catch(() => {})
    } catch {
      toast.error(t`The track could not be loaded.`)
    }
  }

  const showMyPosition = () => {
    const fail = () => toast.error(t`The browser cannot get your location.`)
    if (!('geolocation' in navigator)) return fail()
    navigator.geolocation.getCurrentPosition(
      (position) =>
        void engine
          .run('city.flyTo', {
            lng: position.coords.longitude,
            lat: position.coords.latitude,
            zoom: 17,
          })
          .catch(() => {}),
      fail,
      { timeout: 10_000 },
    )
  }

  return (
    <div className="ts-city-tab ts-draw" data-testid="city-gps-tab">
      <ReadOnlyHint />
      <div className="ts-city-details__actions">
        <Button onClick={showMyPosition}>
          <Trans>My location</Trans>
        </Button>
      </div>
      {canEdit && <LocationPoiForm projectId={projectId} calls={formCalls} onAdded={refresh} />}
      {playback && <TrackPlaybackBar />}
      <LocationPoiList
        objects={objects}
        isLoaded={loadState === 'ready'}
        headingClassName="ts-city-tab__heading"
        lead={(object) => (
          <span
            className="ts-draw__swatch"
            style={{ background: colorOfObject(object.id) }}
            aria-hidden
          />
        )}
        actions={(object) => (
          <>
            <Button
              disabled={!object.last_position}
              aria-label={t`Fly to ${object.name}`}
              onClick={() => engine.run('track.flyToMarker', { id: object.id }).catch(() => {})}
            >
              <Trans>Fly to</Trans>
            </Button>
            <Button
              aria-label={t`Play the track of ${object.name}`}
              onClick={() => void playTrack(object.id)}
            >
              <Trans>Track</Trans>
            </Button>
          </>
        )}
        onDelete={
          canEdit
            ? async (object) => {
                await services.deleteTrackedObject(object.id)
                if (trackingStore.playback?.objectId === object.id) trackingStore.playback = null
                await refresh()
              }
            : undefined
        }
      />
    </div>
  )
}
