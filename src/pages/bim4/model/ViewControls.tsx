import { Trans } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, Select } from '../../../ui'

/** SPEC §9 wheel scale options (the engine multiplies by the basic wheel scale 0.5). */
export const wheelScaleOptions = [1, 1.1, 1.25, 1.5, 1.8, 2, 2.5] as const
/** SPEC §9 minimum zoom factors (× the building's minimum base distance 1 m). */
export const minZoomFactorOptions = [1, 0.9, 0.8, 0.65, 0.5, 0.3, 0.1] as const
/** SPEC §9 maximum zoom factors (× the building's maximum base distance 1e7 m). */
export const maxZoomFactorOptions = [1, 1.5, 2, 3.5, 5, 7.5, 10] as const

const optionsOf = (values: readonly number[], prefix: string) =>
  values.map((value) => ({ value: String(value), label: `${prefix}${value}` }))

/** Fit to model, wheel scale and zoom limits of the building camera. */
export function ViewControls() {
  const engine = useEngine()
  const { building } = useSnapshot(sceneStore)
  const camera = building.camera
  const run = (work: Promise<unknown>) => void work.catch(() => undefined)
  const hasModels = building.models.some((model) => model.loadState === 'success')

  return (
    <fieldset className="ts-bim4-fieldset ts-bim4-view">
      <legend>
        <Trans>View</Trans>
      </legend>
      <Button
        variant="secondary"
        disabled={!hasModels}
        onClick={() => run(engine.run('building.fitToModel', {}))}
      >
        <Trans>Fit to model</Trans>
      </Button>
      <Select
        label={<Trans>Wheel scale</Trans>}
        options={optionsOf(wheelScaleOptions, '×')}
        value={String(camera.wheelScale)}
        onValueChange={(value) =>
          run(engine.run('building.setWheelScale', { wheelScale: Number(value) }))
        }
      />
      <Select
        label={<Trans>Minimum zoom</Trans>}
        options={optionsOf(minZoomFactorOptions, '×')}
        value={String(camera.minZoomFactor)}
        onValueChange={(value) =>
          run(
            engine.run('building.setZoomLimits', {
              minDistanceFactor: Number(value),
              maxDistanceFactor: camera.maxZoomFactor,
            }),
          )
        }
      />
      <Select
        label={<Trans>Maximum zoom</Trans>}
        options={optionsOf(maxZoomFactorOptions, '×')}
        value={String(camera.maxZoomFactor)}
        onValueChange={(value) =>
          run(
            engine.run('building.setZoomLimits', {
              minDistanceFactor: camera.minZoomFactor,
              maxDistanceFactor: Number(value),
            }),
          )
        }
      />
    </fieldset>
  )
}
