import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { updateFloor } from '../../../api/building'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { NumberInput, Slider, toast } from '../../../ui'
import { requestSceneReload } from '../building-session'
import { uploadErrorText } from './upload-messages'

const formatPercent = (value: number) => `${Math.round(value * 100)}%`

/**
 * The floor-select and translucent-shell tools (SPEC §2 visit tools): choose a floor (it alone
 * stays; the other floors and the shell hide) or all floors, switch single floors on and off,
 * set a floor's elevation (saved on the server; the scene reopens with the floors stacked by
 * it), and show the shell or make it translucent. Everything acts through the engine and shows
 * the engine's snapshot, so two panels using it never disagree.
 */
export function FloorControls() {
  const { t } = useLingui()
  const engine = useEngine()
  const { building } = useSnapshot(sceneStore)
  const groupName = useId()
  // The slider moves locally while dragging; the engine gets every step, the snapshot catches up.
  const [opacity, setOpacity] = useState(building.shell.opacity)
  useEffect(() => setOpacity(building.shell.opacity), [building.shell.opacity])

  const run = (work: Promise<unknown>) => void work.catch(() => undefined)
  async function saveElevation(floorId: string, elevation: number) {
    try {
      await updateFloor({ id: floorId, elevation })
      requestSceneReload()
    } catch (error) {
      toast.error(uploadErrorText(error))
    }
  }
  const floorsTopDown = [...building.floors].reverse()

  return (
    <div className="ts-bim4-floors">
      <fieldset className="ts-bim4-fieldset">
        <legend>
          <Trans>Floors</Trans>
        </legend>
        {building.floors.length === 0 ? (
          <p className="ts-bim4-muted">
            <Trans>This building has no floors yet.</Trans>
          </p>
        ) : (
          <ul className="ts-bim4-floors__list">
            <li className="ts-bim4-floors__row">
              <label className="ts-bim4-floors__choice">
                <input
                  type="radio"
                  name={groupName}
                  checked={building.selectedFloorId === null}
                  onChange={() => run(engine.run('building.selectFloor', { floorId: null }))}
                />
                <Trans>All floors</Trans>
              </label>
            </li>
            {floorsTopDown.map((floor) => {
              const floorName = floor.name
              return (
                <li
                  key={floor.id}
                  className="ts-bim4-floors__row"
                  data-testid="floor-row"
                  data-shown={floor.isShown ? '' : undefined}
                >
                  <label className="ts-bim4-floors__choice">
                    <input
                      type="radio"
                      name={groupName}
                      checked={building.selectedFloorId === floor.id}
                      onChange={() =>
                        run(engine.run('building.selectFloor', { floorId: floor.id }))
                      }
                    />
                    {floor.name}
                  </label>
                  <label className="ts-bim4-floors__visible">
                    <input
                      type="checkbox"
                      checked={floor.isVisible}
                      aria-label={t`Show ${floorName}`}
                      onChange={(event) =>
                        run(
                          engine.run('building.setFloorVisible', {
                            floorId: floor.id,
                            isVisible: event.target.checked,
                          }),
                        )
                      }
                    />
                    <Trans>Visible</Trans>
                  </label>
                  <NumberInput
                    label={t`Elevation of ${floorName}`}
                    value={floor.elevationMeters}
                    min={-10000}
                    max={10000}
                    step={0.5}
                    precision={2}
                    unit="m"
                    onChange={(value) => void saveElevation(floor.id, value)}
                  />
                </li>
              )
            })}
          </ul>
        )}
      </fieldset>
      <fieldset className="ts-bim4-fieldset" disabled={building.shell.modelId === null}>
        <legend>
          <Trans>Shell</Trans>
        </legend>
        <label className="ts-bim4-check">
          <input
            type="checkbox"
            checked={building.shell.isVisible}
            onChange={(event) =>
              run(engine.run('building.setShellVisible', { isVisible: event.target.checked }))
            }
          />
          <Trans>Show the shell</Trans>
        </label>
        <Slider
          label={<Trans>Shell opacity</Trans>}
          value={opacity}
          min={0}
          max={1}
          step={0.05}
          formatValue={formatPercent}
          disabled={building.shell.modelId === null || !building.shell.isVisible}
          onChange={(value) => {
            setOpacity(value)
            run(engine.run('building.setShellOpacity', { opacity: value }))
          }}
        />
      </fieldset>
    </div>
  )
}
