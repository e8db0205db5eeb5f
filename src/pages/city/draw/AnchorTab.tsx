import { Trans, useLingui } from '@lingui/react/macro'
import { useMemo, useState } from 'react'
import { proxy, useSnapshot } from 'valtio'
import { type Anchor, minAnchors, solveAnchors } from '../../../../workers/geodesy/anchor-solver'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, EmptyState, Select, TextField } from '../../../ui'
import { placeTileset } from '../city-actions'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { useCityServices } from '../city-services'
import './draw.css'

/** One anchor as the tab keeps it (SPEC §3 anchor point: name, relative coordinates, lng/lat). */
interface NamedAnchor extends Anchor {
  /** Stable within the editor session (the list's key). */
  id: number
  name: string
}

let nextAnchorId = 1

/** The anchors typed per tileset while the editor is open (kept across tab switches). */
const anchorsByTileset = proxy<Record<string, NamedAnchor[]>>({})

const emptyForm = { name: '', x: '', y: '', lng: '', lat: '' }

/**
 * The anchor point set tab (SPEC §2, §3, §5; issue 18): pair points of a tileset in its own
 * coordinates (metres east and north of its origin) with their longitude and latitude, at
 * least three not on one line; the similarity transform is solved by least squares
 * (workers/geodesy/anchor-solver.ts) with each anchor's residual in metres shown, and applied
 * as the tileset's placement (origin and heading; the scale is shown, tilesets stay metric).
 */
export function AnchorTab() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const store = useCityProjectStore()
  const canEdit = useCanEditCityProject()
  const { tilesets } = useSnapshot(store)
  const { camera } = useSnapshot(sceneStore).city
  const anchorsMap = useSnapshot(anchorsByTileset)
  const [tilesetId, setTilesetId] = useState<string | null>(tilesets[0]?.id ?? null)
  const [form, setForm] = useState(emptyForm)
  const [isApplying, setIsApplying] = useState(false)
  const anchors = (tilesetId ? anchorsMap[tilesetId] : undefined) ?? []
  const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 3 })
  const result = useMemo(
    () => solveAnchors(anchors.map(({ x, y, lng, lat }) => ({ x, y, lng, lat }))),
    [anchors],
  )

  if (tilesets.length === 0)
    return (
      <div className="ts-city-tab ts-draw" data-testid="city-anchor-tab">
        <EmptyState title={<Trans>Upload an oblique photography tileset first.</Trans>} />
      </div>
    )

  const values = {
    x: Number.parseFloat(form.x),
    y: Number.parseFloat(form.y),
    lng: Number.parseFloat(form.lng),
    lat: Number.parseFloat(form.lat),
  }
  const isFormValid =
    Object.values(values).every(Number.isFinite) &&
    Math.abs(values.lng) <= 180 &&
    Math.abs(values.lat) <= 90
  const tileset = tilesets.find((candidate) => candidate.id === tilesetId)

  return (
    <div className="ts-city-tab ts-draw" data-testid="city-anchor-tab">
      <Select
        label={<Trans>Tileset</Trans>}
        options={tilesets.map((item) => ({ value: item.id, label: item.name }))}
        value={tilesetId}
        onValueChange={setTilesetId}
      />
      <p className="ts-city-tab__hint">
        <Trans>
          Pair at least three points of the model (metres east and north of its origin) with their
          longitude and latitude: two fix the distance, the third the orientation.
        </Trans>
      </p>
      {canEdit && tilesetId && (
        <form
          className="ts-draw__form"
          aria-label={t`New anchor point`}
          onSubmit={(event) => {
            event.preventDefault()
            if (!isFormValid) return
            const anchor = {
              id: nextAnchorId++,
              name: form.name.trim() || `#${anchors.length + 1}`,
              ...values,
            }
            anchorsByTileset[tilesetId] = [...(anchorsByTileset[tilesetId] ?? []), anchor]
            setForm(emptyForm)
          }}
        >
          <TextField
            label={<Trans>Name</Trans>}
            value={form.name}
            maxLength={100}
            onChange={(event) => setForm({ ...form, name: event.target.value })}
          />
          {(['x', 'y', 'lng', 'lat'] as const).map((key) => (
            <TextField
              key={key}
              label={
                key === 'x' ? (
                  <Trans>Model x (m)</Trans>
                ) : key === 'y' ? (
                  <Trans>Model y (m)</Trans>
                ) : key === 'lng' ? (
                  <Trans>Longitude</Trans>
                ) : (
                  <Trans>Latitude</Trans>
                )
              }
              type="number"
              step="any"
              required
              value={form[key]}
              onChange={(event) => setForm({ ...form, [key]: event.target.value })}
            />
          ))}
          <div className="ts-city-details__actions">
            <Button
              onClick={() =>
                setForm({ ...form, lng: camera.lng.toFixed(7), lat: camera.lat.toFixed(7) })
              }
            >
              <Trans>Use the map centre</Trans>
            </Button>
            <Button type="submit" variant="primary" disabled={!isFormValid}>
              <Trans>Add anchor point</Trans>
            </Button>
          </div>
        </form>
      )}
      <h3 className="ts-city-tab__heading">
        <Trans>Anchor points</Trans>
      </h3>
      {anchors.length > 0 && (
        <ul className="ts-draw__list" data-testid="anchor-list">
          {anchors.map((anchor, index) => (
            <li key={anchor.id} className="ts-draw__item" data-testid="anchor-item">
              <div className="ts-draw__item-text">
                <span className="ts-draw__item-name">{anchor.name}</span>
                <span className="ts-draw__item-measure">
                  ({number.format(anchor.x)}, {number.format(anchor.y)}) → {anchor.lng.toFixed(6)},{' '}
                  {anchor.lat.toFixed(6)}
                  {result.ok && (
                    <span data-testid="anchor-residual">
                      {' · '}
                      <Trans>
                        residual {number.format(result.fit.residualsMeters[index] ?? 0)} m
                      </Trans>
                    </span>
                  )}
                </span>
              </div>
              {canEdit && tilesetId && (
                <div className="ts-draw__item-actions">
                  <Button
                    variant="danger"
                    onClick={() => {
                      anchorsByTileset[tilesetId] = (anchorsByTileset[tilesetId] ?? []).filter(
                        (_, position) => position !== index,
                      )
                    }}
                  >
                    <Trans>Delete</Trans>
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <section className="ts-city-details" aria-label={t`Location`} data-testid="anchor-fit">
        {!result.ok ? (
          <p className="ts-draw__issue" role="alert">
            {result.issue.code === 'tooFewAnchors' ? (
              anchors.length === 0 ? (
                <Trans>Please add an anchor point first.</Trans>
              ) : (
                <Trans>
                  Add at least {minAnchors} anchor points ({anchors.length} so far).
                </Trans>
              )
            ) : result.issue.code === 'anchorsCollinear' ? (
              <Trans>
                The anchor points lie on one line, so the orientation is undetermined. Add one off
                the line.
              </Trans>
            ) : (
              <Trans>An anchor point is outside the map.</Trans>
            )}
          </p>
        ) : (
          <>
            <dl className="ts-draw__measure">
              <dt>
                <Trans>Origin</Trans>
              </dt>
              <dd>
                {result.fit.originLngLat[0].toFixed(7)}, {result.fit.originLngLat[1].toFixed(7)}
              </dd>
              <dt>
                <Trans>Heading</Trans>
              </dt>
              <dd>{number.format(headingOf(result.fit.rotationAtOriginDegrees))}°</dd>
              <dt>
                <Trans>Scale</Trans>
              </dt>
              <dd>{number.format(result.fit.scale)}</dd>
              <dt>
                <Trans>RMS residual</Trans>
              </dt>
              <dd data-testid="anchor-rms">{number.format(result.fit.rmsMeters)} m</dd>
            </dl>
            {canEdit && tileset && (
              <Button
                variant="primary"
                disabled={isApplying}
                onClick={async () => {
                  setIsApplying(true)
                  // The store's own record (the snapshot is read-only).
                  const saved = store.tilesets.find((candidate) => candidate.id === tileset.id)
                  if (!saved) return setIsApplying(false)
                  await placeTileset({ store, services, engine }, saved, {
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
          </>
        )}
      </section>
    </div>
  )
}

/**
 * The placement heading (degrees clockwise from north of the model's +y axis, 0..360) of a fit
 * that turns the model's x axis `rotation` degrees counter-clockwise from east: +y then points
 * `rotation + 90` counter-clockwise from east, which is `-rotation` clockwise from north.
 */
export function headingOf(rotationDegrees: number): number {
  return ((-rotationDegrees % 360) + 360) % 360
}
