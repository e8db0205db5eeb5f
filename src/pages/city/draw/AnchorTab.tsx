import { Trans } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { AnchorFitView } from '../../../components/anchors/AnchorFitView'
import {
  AnchorForm,
  type AnchorFormValues,
  emptyAnchorForm,
} from '../../../components/anchors/AnchorForm'
import { AnchorList } from '../../../components/anchors/AnchorList'
import { headingOf, useSavedAnchors } from '../../../components/anchors/use-saved-anchors'
import '../../../components/anchors/anchors.css'
import '../../../components/region-list/region-list.css'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { currentProject } from '../../../state/project'
import { Button, EmptyState, Select } from '../../../ui'
import { placeTileset } from '../city-actions'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { useCityServices } from '../city-services'
import { ReadOnlyHint } from '../ReadOnlyHint'
import './draw.css'
import { tilesetAnchorPick } from './tileset-anchor-pick'

/**
 * The anchor point set tab (SPEC §2, §3, §5; issue 18): pair points of a tileset in its own
 * coordinates (metres east and north of its origin; typed, or picked by clicking the tileset on
 * the map) with their longitude and latitude, at least three not on one line. The anchors are saved per tileset (`/poi` location mapping);
 * the similarity transform is solved by least squares (workers/geodesy/anchor-solver.ts) with
 * each anchor's residual in metres shown, and applied as the tileset's placement (origin and
 * heading; the scale is shown, tilesets stay metric).
 */
export function AnchorTab() {
  const engine = useEngine()
  const services = useCityServices()
  const store = useCityProjectStore()
  const canEdit = useCanEditCityProject()
  const { projectId } = useSnapshot(currentProject)
  const { tilesets } = useSnapshot(store)
  const { camera } = useSnapshot(sceneStore).city
  const [chosenId, setChosenId] = useState<string | null>(null)
  const tilesetId = chosenId ?? tilesets[0]?.id ?? null
  const [form, setForm] = useState<AnchorFormValues>(emptyAnchorForm)
  const [isApplying, setIsApplying] = useState(false)
  const saved = useSavedAnchors(services.anchors, projectId, tilesetId)
  const picking = useSnapshot(tilesetAnchorPick)
  const isPicking = picking.tilesetId !== null && picking.tilesetId === tilesetId

  // A point picked on the tileset fills the relative coordinates (the rest of the form is kept:
  // the user may be typing it). Centimetres are enough for a click.
  useEffect(() => {
    const pick = tilesetAnchorPick.pick
    if (picking.sequence === 0 || !pick) return
    const centimetres = (value: number) => String(Math.round(value * 100) / 100 + 0)
    setForm((current) => ({
      ...current,
      x: centimetres(pick.local.x),
      y: centimetres(pick.local.y),
      z: centimetres(pick.local.z),
    }))
  }, [picking.sequence])

  // Leaving the tab (or choosing another tileset) ends a pick that was not made.
  useEffect(() => {
    const chosen = tilesetId
    return () => {
      if (tilesetAnchorPick.tilesetId === chosen) tilesetAnchorPick.tilesetId = null
    }
  }, [tilesetId])

  if (tilesets.length === 0)
    return (
      <div className="ts-city-tab ts-draw" data-testid="city-anchor-tab">
        <ReadOnlyHint />
        <EmptyState title={<Trans>Upload an oblique photography tileset first.</Trans>} />
      </div>
    )

  const tileset = tilesets.find((candidate) => candidate.id === tilesetId)
  const result = saved.fit

  return (
    <div className="ts-city-tab ts-draw" data-testid="city-anchor-tab">
      <ReadOnlyHint />
      <Select
        label={<Trans>Tileset</Trans>}
        options={tilesets.map((item) => ({ value: item.id, label: item.name }))}
        value={tilesetId}
        onValueChange={setChosenId}
      />
      <p className="ts-city-tab__hint">
        <Trans>
          Pair at least three points of the model (metres east and north of its origin) with their
          longitude and latitude: two fix the distance, the third the orientation.
        </Trans>
      </p>
      {isPicking && (
        <p className="ts-city-tab__hint" role="status" data-testid="tileset-pick-hint">
          {picking.missed > 0 ? (
            <Trans>That point is not on this tileset. Click on the tileset itself.</Trans>
          ) : (
            <Trans>Click a point of the tileset on the map.</Trans>
          )}
        </p>
      )}
      {canEdit && tilesetId && (
        <AnchorForm
          form={form}
          onChange={setForm}
          count={saved.anchors.length}
          isBusy={saved.isBusy}
          onSubmit={async (anchor) => {
            if (await saved.add(anchor)) setForm(emptyAnchorForm)
          }}
          tools={
            <>
              <Button
                aria-pressed={isPicking}
                onClick={() => {
                  tilesetAnchorPick.missed = 0
                  tilesetAnchorPick.tilesetId = isPicking ? null : tilesetId
                }}
              >
                {isPicking ? <Trans>Cancel picking</Trans> : <Trans>Pick in the tileset</Trans>}
              </Button>
              <Button
                onClick={() =>
                  setForm({ ...form, lng: camera.lng.toFixed(7), lat: camera.lat.toFixed(7) })
                }
              >
                <Trans>Use the map centre</Trans>
              </Button>
            </>
          }
        />
      )}
      <h3 className="ts-city-tab__heading">
        <Trans>Anchor points</Trans>
      </h3>
      <AnchorList
        anchors={saved.anchors}
        fit={result.ok ? result.fit : null}
        isBusy={saved.isBusy}
        {...(canEdit ? { onDelete: (anchor) => void saved.remove(anchor.id) } : {})}
      />
      <AnchorFitView count={saved.anchors.length} result={result}>
        {canEdit && tileset && result.ok && (
          <Button
            variant="primary"
            disabled={isApplying}
            onClick={async () => {
              setIsApplying(true)
              // The store's own record (the snapshot is read-only).
              const record = store.tilesets.find((candidate) => candidate.id === tileset.id)
              if (!record) return setIsApplying(false)
              await placeTileset({ store, services, engine }, record, {
                lng: result.fit.originLngLat[0],
                lat: result.fit.originLngLat[1],
                height_offset: tileset.placement?.height_offset ?? 0,
                heading: headingOf(result.fit.rotationAtOriginDegrees),
              })
              setIsApplying(false)
            }}
          >
            <Trans>Place the tileset</Trans>
          </Button>
        )}
      </AnchorFitView>
    </div>
  )
}
