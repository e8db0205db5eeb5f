import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import type { DrawEditTool } from '../../../../engine/api'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, Slider } from '../../../ui'
import { useCityServices } from '../city-services'
import { saveEditedDrawing } from './draw-actions'
import { drawTypeNames, isAreaType, issueTexts, useMeasureFormat } from './draw-texts'

const tools: ReadonlyArray<{ tool: DrawEditTool; label: MessageDescriptor }> = [
  { tool: 'edit', label: msg`Edit points` },
  { tool: 'move', label: msg`Move` },
  { tool: 'rotate', label: msg`Rotate` },
]

/**
 * The geometry control bar (SPEC §2, §4) on the saved shape being edited
 * (`snapshot.city.draw.editing`): one tool at a time (edit points, move, rotate with its slider,
 * −180..180 step 15), undo and redo, update (save: the server measures again) and close (drops
 * the change and clears the tool). Dragged points land on a nearby vertex of another drawing. The shape's area and length follow every change.
 */
export function GeometryBar({ name }: { name: string }) {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const editing = useSnapshot(sceneStore).city.draw.editing
  const format = useMeasureFormat()
  const [isSaving, setIsSaving] = useState(false)
  // The slider's own value: key presses come faster than the snapshot answers, and each step
  // must count from the last one, not from the last published angle. The engine starts every
  // rotate (a new tool, an undo) at 0, and so does this.
  const [angle, setAngle] = useState(0)
  if (!editing) return null
  const run = (promise: Promise<unknown>) => promise.catch(() => {})

  return (
    <section
      className="ts-boxed ts-draw__edit"
      aria-label={t`Edit ${name}`}
      data-testid="draw-geometry-bar"
    >
      <h3 className="ts-city-details__title">
        {name} · {i18n._(drawTypeNames[editing.type])}
      </h3>
      <div className="ts-draw__tools" role="toolbar" aria-label={t`Geometry tools`}>
        {tools.map(({ tool, label }) => (
          <Button
            key={tool}
            aria-pressed={editing.tool === tool}
            variant={editing.tool === tool ? 'primary' : 'secondary'}
            // A second click on the active tool puts it down (one tool at a time, or none).
            onClick={() => {
              setAngle(0)
              run(engine.run('draw.editTool', { tool: editing.tool === tool ? null : tool }))
            }}
          >
            {i18n._(label)}
          </Button>
        ))}
        <Button
          disabled={editing.undoDepth === 0}
          onClick={() => {
            setAngle(0)
            run(engine.run('draw.editUndo'))
          }}
        >
          <Trans>Undo</Trans>
        </Button>
        <Button
          disabled={editing.redoDepth === 0}
          onClick={() => {
            setAngle(0)
            run(engine.run('draw.editRedo'))
          }}
        >
          <Trans>Redo</Trans>
        </Button>
      </div>
      {editing.tool === 'edit' && (
        <p className="ts-city-tab__hint">
          <Trans>Drag a point to move it; drag a midpoint to add one.</Trans>
        </p>
      )}
      {editing.tool === 'move' && (
        <p className="ts-city-tab__hint">
          <Trans>Drag the shape to move it.</Trans>
        </p>
      )}
      {editing.tool === 'rotate' && (
        <Slider
          label={<Trans>Rotation</Trans>}
          value={angle}
          min={-180}
          max={180}
          step={15}
          stepOrigin={0}
          formatValue={(value) => `${value}°`}
          onChange={(degrees) => {
            setAngle(degrees)
            run(engine.run('draw.editRotate', { degrees }))
          }}
        />
      )}
      {editing.issue ? (
        <p className="ts-region__issue" role="alert">
          {i18n._(issueTexts[editing.issue] ?? msg`This shape cannot be saved.`)}
        </p>
      ) : (
        <dl className="ts-region__measure" data-testid="draw-edit-measure">
          {isAreaType(editing.type) && (
            <>
              <dt>
                <Trans>Area</Trans>
              </dt>
              <dd>{format.squareMeters(editing.areaSquareMeters)}</dd>
            </>
          )}
          {editing.type !== 2 && (
            <>
              <dt>{isAreaType(editing.type) ? <Trans>Perimeter</Trans> : <Trans>Length</Trans>}</dt>
              <dd>{format.meters(editing.lengthMeters)}</dd>
            </>
          )}
        </dl>
      )}
      <div className="ts-city-details__actions">
        <Button
          variant="primary"
          disabled={isSaving || editing.issue !== null || editing.undoDepth === 0}
          onClick={async () => {
            if (isSaving) return
            setIsSaving(true)
            await saveEditedDrawing(engine, services, { id: editing.id, points: editing.points })
            setIsSaving(false)
          }}
        >
          <Trans>Update</Trans>
        </Button>
        <Button onClick={() => run(engine.run('draw.editStop'))}>
          <Trans>Close</Trans>
        </Button>
      </div>
    </section>
  )
}
