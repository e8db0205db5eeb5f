import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { DrawTypeNumber } from '../../../../engine/api'
import type { AreaDraw, DrawKind } from '../../../api/draw'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, confirmDelete, EmptyState } from '../../../ui'
import { useCanEditCityProject } from '../city-context'
import { useCityServices } from '../city-services'
import { ReadOnlyHint } from '../ReadOnlyHint'
import { deleteDrawing, drawTypesOfKind, savePendingDrawing, updateDrawing } from './draw-actions'
import { drawStore } from './draw-store'
import { DrawingForm } from './DrawingForm'
import { drawTypeNames, isAreaType, issueTexts, useMeasureFormat } from './draw-texts'
import { GeometryBar } from './GeometryBar'
import '../../../components/region-list/region-list.css'
import './draw.css'

/**
 * The area division (`kind` area) and path programming (`kind` path) tabs (SPEC §2): pick a
 * draw type, draw on the map, read the shape's area and length, name, describe and colour it and
 * save it; the saved ones are listed with fly to, edit (geometry bar), modify (name, description,
 * colours, display mode), show/hide and delete.
 */
export function DrawTab({ kind, projectId }: { kind: DrawKind; projectId: string }) {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const canEdit = useCanEditCityProject()
  const { draw } = useSnapshot(sceneStore).city
  const { drawings, loadState } = useSnapshot(drawStore)
  const format = useMeasureFormat()
  // The saved drawing in the modify form (SPEC §4 area edit "modify"), or null.
  const [modifyingId, setModifyingId] = useState<string | null>(null)
  const pending = draw.pending
  const types = drawTypesOfKind[kind]
  const isArea = isAreaType

  // Leaving the tab drops a shape in hand: it belongs to this tab's kind.
  useEffect(
    () => () => {
      engine.run('draw.cancel').catch(() => {})
    },
    [engine],
  )

  const mine = drawings.filter((drawing) => drawing.kind === kind) as AreaDraw[]
  const modifying = mine.find((drawing) => drawing.id === modifyingId)

  return (
    <div className="ts-city-tab ts-draw" data-testid={`city-draw-tab-${kind}`}>
      <ReadOnlyHint />
      {canEdit && (
        <>
          <p className="ts-city-tab__hint">
            {kind === 'area' ? (
              <Trans>Choose a shape, then click on the map to draw it.</Trans>
            ) : (
              <Trans>Choose a line, then click on the map to draw the path.</Trans>
            )}
          </p>
          <fieldset className="ts-draw__types" aria-label={t`Draw type`}>
            {types.map((type) => (
              <Button
                key={type}
                aria-pressed={draw.activeType === type}
                variant={draw.activeType === type ? 'primary' : 'secondary'}
                onClick={() => {
                  engine.run('draw.start', { type }).catch(() => {})
                }}
              >
                {i18n._(drawTypeNames[type])}
              </Button>
            ))}
          </fieldset>
        </>
      )}
      {draw.activeType !== null && !pending && (
        <div className="ts-draw__drawing">
          <p className="ts-city-tab__hint">
            {draw.activeType === 1 ? (
              <Trans>Click the centre, then click a point on the circle.</Trans>
            ) : draw.activeType === 2 ? (
              <Trans>Click where the point goes.</Trans>
            ) : (
              <Trans>Click to add points; double-click the last point to finish.</Trans>
            )}
          </p>
          <Button onClick={() => engine.run('draw.cancel').catch(() => {})}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      )}
      {pending && (
        <section className="ts-boxed" aria-label={t`New drawing`} data-testid="draw-pending">
          <h3 className="ts-city-details__title">{i18n._(drawTypeNames[pending.type])}</h3>
          {pending.issue ? (
            <p className="ts-region__issue" role="alert">
              {i18n._(issueTexts[pending.issue] ?? msg`This shape cannot be saved.`)}
            </p>
          ) : (
            <dl className="ts-region__measure" data-testid="draw-pending-measure">
              {isArea(pending.type) && (
                <>
                  <dt>
                    <Trans>Area</Trans>
                  </dt>
                  <dd>{format.squareMeters(pending.areaSquareMeters)}</dd>
                </>
              )}
              {pending.type !== 2 && (
                <>
                  <dt>{isArea(pending.type) ? <Trans>Perimeter</Trans> : <Trans>Length</Trans>}</dt>
                  <dd>{format.meters(pending.lengthMeters)}</dd>
                </>
              )}
            </dl>
          )}
          {!pending.issue && (
            // Double submit is blocked until the answer (SPEC §4 path edit dialog).
            <DrawingForm
              // A new shape starts a new form.
              key={pending.points.map((point) => point.join(',')).join(';')}
              kind={kind}
              type={pending.type}
              submitLabel={<Trans>Save</Trans>}
              onCancel={() => engine.run('draw.cancel').catch(() => {})}
              onSubmit={(values) =>
                savePendingDrawing(engine, services, {
                  projectId,
                  kind,
                  type: pending.type,
                  points: pending.points,
                  ...values,
                })
              }
            />
          )}
          {pending.issue && (
            <Button onClick={() => engine.run('draw.cancel').catch(() => {})}>
              <Trans>Cancel</Trans>
            </Button>
          )}
        </section>
      )}
      {modifying && (
        <section
          className="ts-boxed"
          aria-label={t`Modify ${modifying.name}`}
          data-testid="draw-modify"
        >
          <h3 className="ts-city-details__title">
            {modifying.name} ·{' '}
            {i18n._(drawTypeNames[modifying.type as DrawTypeNumber] ?? msg`Shape`)}
          </h3>
          <DrawingForm
            key={modifying.id}
            kind={kind}
            type={modifying.type as DrawTypeNumber}
            initial={modifying}
            submitLabel={<Trans>Modify</Trans>}
            onCancel={() => setModifyingId(null)}
            onSubmit={async (values) => {
              if (await updateDrawing(services, modifying.id, values)) setModifyingId(null)
            }}
          />
        </section>
      )}
      {draw.editing && mine.some((drawing) => drawing.id === draw.editing!.id) && (
        <GeometryBar name={mine.find((drawing) => drawing.id === draw.editing!.id)!.name} />
      )}
      <h3 className="ts-city-tab__heading">
        {kind === 'area' ? <Trans>Areas</Trans> : <Trans>Paths</Trans>}
      </h3>
      {loadState === 'ready' && mine.length === 0 ? (
        <EmptyState
          title={kind === 'area' ? <Trans>No areas yet</Trans> : <Trans>No paths yet</Trans>}
        />
      ) : (
        <ul className="ts-region__list" data-testid="draw-list">
          {mine.map((drawing) => (
            <li key={drawing.id} className="ts-region__item" data-testid="draw-item">
              <div className="ts-region__item-text">
                <span className="ts-region__item-name">{drawing.name}</span>
                <span className="ts-region__item-measure">
                  {i18n._(drawTypeNames[drawing.type as DrawTypeNumber] ?? msg`Shape`)}
                  {' · '}
                  {isArea(drawing.type)
                    ? format.squareMeters(drawing.acreage)
                    : drawing.type === 2
                      ? ''
                      : format.meters(drawing.length)}
                </span>
              </div>
              <div className="ts-region__item-actions">
                <Button
                  aria-label={t`Fly to ${drawing.name}`}
                  onClick={() => engine.run('draw.flyToShape', { id: drawing.id }).catch(() => {})}
                >
                  <Trans>Fly to</Trans>
                </Button>
                {canEdit && (
                  <>
                    <Button
                      aria-label={t`Edit ${drawing.name}`}
                      aria-pressed={draw.editing?.id === drawing.id}
                      onClick={async () => {
                        await engine.run('draw.flyToShape', { id: drawing.id }).catch(() => {})
                        await engine.run('draw.edit', { id: drawing.id }).catch(() => {})
                      }}
                    >
                      <Trans>Edit</Trans>
                    </Button>
                    <Button
                      aria-label={t`Modify ${drawing.name}`}
                      aria-pressed={modifyingId === drawing.id}
                      onClick={() => setModifyingId(drawing.id)}
                    >
                      <Trans>Modify</Trans>
                    </Button>
                    <Button
                      aria-pressed={!drawing.is_visible}
                      onClick={() =>
                        updateDrawing(services, drawing.id, { is_visible: !drawing.is_visible })
                      }
                    >
                      {drawing.is_visible ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
                    </Button>
                    <Button
                      variant="danger"
                      onClick={async () => {
                        if (await confirmDelete({ itemName: drawing.name }))
                          await deleteDrawing(services, drawing.id)
                      }}
                    >
                      <Trans>Delete</Trans>
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
