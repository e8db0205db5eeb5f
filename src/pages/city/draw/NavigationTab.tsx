import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { NavigationRate, NavigationSpeed } from '../../../../engine/api'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { Button, EmptyState } from '../../../ui'
import { drawStore } from './draw-store'
import { useMeasureFormat } from './draw-texts'
import '../../../components/region-list/region-list.css'
import './draw.css'

const rates: NavigationRate[] = [1, 2, 3, 5]

/**
 * The path navigation tab (SPEC §2, §9 point slider options): choose a saved path, a speed
 * (slow or fast) and a rate (×1 ×2 ×3 ×5), and the camera flies along the path looking ahead;
 * pause, resume and stop. The engine flies (`navigate.*`); the tab shows how far it got.
 */
export function NavigationTab() {
  const { t } = useLingui()
  const engine = useEngine()
  const format = useMeasureFormat()
  const { drawings } = useSnapshot(drawStore)
  const { navigation } = useSnapshot(sceneStore).city
  const [speed, setSpeed] = useState<NavigationSpeed>('slow')
  const [rate, setRate] = useState<NavigationRate>(1)
  const paths = drawings.filter((drawing) => drawing.kind === 'path' && drawing.points.length >= 2)

  // Leaving the tab ends the flight: the camera is the user's again.
  useEffect(
    () => () => {
      engine.run('navigate.stop').catch(() => {})
    },
    [engine],
  )

  const changePace = (nextSpeed: NavigationSpeed, nextRate: NavigationRate) => {
    setSpeed(nextSpeed)
    setRate(nextRate)
    engine.run('navigate.setPace', { speed: nextSpeed, rate: nextRate }).catch(() => {})
  }

  const isActive = navigation.status === 'flying' || navigation.status === 'paused'
  const flown = paths.find((path) => path.id === navigation.pathId)

  return (
    <div className="ts-city-tab ts-draw" data-testid="city-navigation-tab">
      <fieldset className="ts-draw__types" aria-label={t`Speed`}>
        {(['slow', 'fast'] as const).map((option) => (
          <Button
            key={option}
            aria-pressed={speed === option}
            variant={speed === option ? 'primary' : 'secondary'}
            onClick={() => changePace(option, rate)}
          >
            {option === 'slow' ? <Trans>Slow</Trans> : <Trans>Fast</Trans>}
          </Button>
        ))}
      </fieldset>
      <fieldset className="ts-draw__types" aria-label={t`Rate`}>
        {rates.map((option) => (
          <Button
            key={option}
            aria-pressed={rate === option}
            variant={rate === option ? 'primary' : 'secondary'}
            onClick={() => changePace(speed, option)}
          >
            ×{option}
          </Button>
        ))}
      </fieldset>
      {navigation.status !== 'idle' && (
        <section className="ts-boxed" aria-label={t`Navigation`} data-testid="navigation-progress">
          <h3 className="ts-city-details__title">{flown?.name ?? ''}</h3>
          <progress max={navigation.totalMeters || 1} value={navigation.meters} />
          <p className="ts-region__item-measure">
            {format.meters(navigation.meters)} / {format.meters(navigation.totalMeters)}
            {navigation.status === 'done' && (
              <>
                {' · '}
                <Trans>Arrived</Trans>
              </>
            )}
          </p>
          <div className="ts-city-details__actions">
            {isActive && (
              <Button
                onClick={() =>
                  engine
                    .run('navigate.pause', { isPaused: navigation.status === 'flying' })
                    .catch(() => {})
                }
              >
                {navigation.status === 'flying' ? <Trans>Pause</Trans> : <Trans>Resume</Trans>}
              </Button>
            )}
            <Button onClick={() => engine.run('navigate.stop').catch(() => {})}>
              <Trans>Stop</Trans>
            </Button>
          </div>
        </section>
      )}
      <h3 className="ts-city-tab__heading">
        <Trans>Paths</Trans>
      </h3>
      {paths.length === 0 ? (
        <EmptyState title={<Trans>Draw a path in path programming first.</Trans>} />
      ) : (
        <ul className="ts-region__list" data-testid="navigation-list">
          {paths.map((path) => (
            <li key={path.id} className="ts-region__item" data-testid="navigation-item">
              <div className="ts-region__item-text">
                <span className="ts-region__item-name">{path.name}</span>
                <span className="ts-region__item-measure">{format.meters(path.length)}</span>
              </div>
              <div className="ts-region__item-actions">
                <Button
                  variant="primary"
                  aria-label={t`Navigate ${path.name}`}
                  onClick={() =>
                    engine
                      .run('navigate.start', { pathId: path.id, points: path.points, speed, rate })
                      .catch(() => {})
                  }
                >
                  <Trans>Navigate</Trans>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
