import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { CategoryNode } from '../../../api/templates'
import { reasonText } from '../../../components/feedback/error-text'
import { useEngine } from '../../../engine-bridge'
import { categoryNameText } from '../../../i18n/library-names'
import { Button, confirmDelete, EmptyState, Select, TextField, toast } from '../../../ui'
import { useCanEditCityProject } from '../city-context'
import { useCityServices } from '../city-services'
import { TrackPlaybackBar } from './TrackPlaybackBar'
import { colorOfObject, trackingStore } from './tracking-store'
import '../../../components/region-list/region-list.css'
import './draw.css'

/** How far back a played track reaches. */
const playbackHours = 24

/** The select's value for "no location category". */
const noCategory = 'none'

/** The location category tree as select options, each named by its path ('Staff / Guards'). */
function categoryOptions(
  nodes: readonly CategoryNode[],
  path: readonly string[] = [],
): { value: string; label: string }[] {
  return nodes.flatMap((node) => {
    const names = [...path, categoryNameText(node)]
    return [{ value: node.id, label: names.join(' / ') }, ...categoryOptions(node.children, names)]
  })
}

/**
 * The GPS positioning tab (SPEC §2, §3 positioned object, §7 location POIs): add a location POI
 * (a positioned object filed under a category of the location tree, with its coding; its device
 * token is shown once, for `POST /api/v1/{token}/position`), see each one live on the map with
 * heading and trail, fly to it, play its track back on a timeline, delete it; and fly to the
 * user's own position ('browser cannot get location' when the browser refuses).
 */
export function GpsTab({ projectId }: { projectId: string }) {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const canEdit = useCanEditCityProject()
  const { objects, playback, loadState } = useSnapshot(trackingStore)
  const [name, setName] = useState('')
  const [category, setCategory] = useState('')
  const [coding, setCoding] = useState('')
  const [categoryId, setCategoryId] = useState(noCategory)
  const [locationCategories, setLocationCategories] = useState<CategoryNode[]>([])
  const [isSaving, setIsSaving] = useState(false)
  const [newToken, setNewToken] = useState<{ name: string; token: string } | null>(null)
  const time = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'medium' })

  // The location tree (SPEC §3: fetched with id '0') names what the objects are; a failed
  // read leaves the choice out, the free-text category still works.
  useEffect(() => {
    if (!canEdit) return
    let isCurrent = true
    services.findLocationCategories().then(
      (tree) => {
        if (isCurrent) setLocationCategories(tree)
      },
      () => {},
    )
    return () => {
      isCurrent = false
    }
  }, [services, canEdit])
  const categoryChoices = categoryOptions(locationCategories)

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
      <div className="ts-city-details__actions">
        <Button onClick={showMyPosition}>
          <Trans>My location</Trans>
        </Button>
      </div>
      {canEdit && (
        <form
          className="ts-region__form"
          aria-label={t`New positioned object`}
          onSubmit={async (event) => {
            event.preventDefault()
            if (isSaving || name.trim() === '') return
            setIsSaving(true)
            try {
              const added = await services.addTrackedObject({
                project_id: projectId,
                name: name.trim(),
                category: category.trim(),
                category_id: categoryId === noCategory ? '' : categoryId,
                coding: coding.trim(),
              })
              setNewToken({ name: added.object.name, token: added.token })
              setName('')
              setCategory('')
              setCategoryId(noCategory)
              setCoding('')
              await refresh()
            } catch (error) {
              toast.error(`${t`The object could not be added.`} ${reasonText(error)}`)
            }
            setIsSaving(false)
          }}
        >
          <TextField
            label={<Trans>Name</Trans>}
            value={name}
            maxLength={100}
            required
            onChange={(event) => setName(event.target.value)}
          />
          <TextField
            label={<Trans>Category</Trans>}
            value={category}
            maxLength={100}
            placeholder={t`e.g. person, vehicle`}
            onChange={(event) => setCategory(event.target.value)}
          />
          {categoryChoices.length > 0 && (
            <Select
              label={<Trans>Location category</Trans>}
              options={[{ value: noCategory, label: t`None` }, ...categoryChoices]}
              value={categoryId}
              onValueChange={setCategoryId}
            />
          )}
          <TextField
            label={<Trans>Coding</Trans>}
            value={coding}
            maxLength={100}
            onChange={(event) => setCoding(event.target.value)}
          />
          <Button type="submit" variant="primary" disabled={isSaving || name.trim() === ''}>
            <Trans>Add</Trans>
          </Button>
        </form>
      )}
      {newToken && (
        <section className="ts-city-details" data-testid="tracked-token" role="status">
          <p>
            <Trans>
              The device token of {newToken.name} is shown only now. The device reports its position
              to:
            </Trans>
          </p>
          <code className="ts-draw__token">{`POST ${location.origin}/api/v1/${newToken.token}/position`}</code>
          <Button onClick={() => setNewToken(null)}>
            <Trans>Done</Trans>
          </Button>
        </section>
      )}
      {playback && <TrackPlaybackBar />}
      <h3 className="ts-city-tab__heading">
        <Trans>Positioned objects</Trans>
      </h3>
      {loadState === 'ready' && objects.length === 0 ? (
        <EmptyState title={<Trans>No positioned objects yet</Trans>} />
      ) : (
        <ul className="ts-region__list" data-testid="tracked-list">
          {objects.map((object) => (
            <li key={object.id} className="ts-region__item" data-testid="tracked-item">
              <span
                className="ts-draw__swatch"
                style={{ background: colorOfObject(object.id) }}
                aria-hidden
              />
              <div className="ts-region__item-text">
                <span className="ts-region__item-name">{object.name}</span>
                <span className="ts-region__item-measure">
                  {[object.category, object.coding].filter(Boolean).join(' · ')}
                  {object.last_position ? (
                    <>
                      {' '}
                      <Trans>last seen {time.format(new Date(object.last_position.at))}</Trans>
                    </>
                  ) : (
                    <>
                      {' '}
                      <Trans>no position yet</Trans>
                    </>
                  )}
                  {object.inside_fence_ids.length > 0 && (
                    <strong className="ts-draw__inside" data-testid="tracked-inside">
                      {' '}
                      <Trans>inside a fence</Trans>
                    </strong>
                  )}
                </span>
              </div>
              <div className="ts-region__item-actions">
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
                {canEdit && (
                  <Button
                    variant="danger"
                    onClick={async () => {
                      if (!(await confirmDelete({ itemName: object.name }))) return
                      try {
                        await services.deleteTrackedObject(object.id)
                        if (trackingStore.playback?.objectId === object.id)
                          trackingStore.playback = null
                        await refresh()
                      } catch {
                        toast.error(t`The object could not be deleted.`)
                      }
                    }}
                  >
                    <Trans>Delete</Trans>
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
