import { Trans } from '@lingui/react/macro'
import { Link } from 'wouter'
import { EmptyState } from '../../ui'
import { spaceModules } from './space-modules'

/** Props of {@link EmptySceneHint}. */
export interface EmptySceneHintProps {
  /** True once the opened project is known to have neither models nor a GML network. */
  isSceneEmpty: boolean
  /** The module shown in the side panel. */
  moduleId: string
}

/** The model library is where models are made; the GML module draws a network without them. */
const modulesWithoutHint = new Set(['model', 'gml'])

/**
 * Over an empty building scene: a new project has no models, and a plain grey canvas does not
 * tell a person that the building is made in the Model module first. Hidden where the scene is
 * filled from the side panel itself.
 */
export function EmptySceneHint({ isSceneEmpty, moduleId }: EmptySceneHintProps) {
  if (!isSceneEmpty || modulesWithoutHint.has(moduleId)) return null
  const modelModule = spaceModules.find((module) => module.id === 'model')
  return (
    <div className="ts-bim4-stage__overlay" data-testid="empty-scene-hint">
      <div className="ts-bim4-stage__card">
        <EmptyState
          title={<Trans>This building has no models yet</Trans>}
          description={
            <Trans>Upload the floors and the shell in the Model module, then come back here.</Trans>
          }
          action={
            modelModule && (
              <Link href={modelModule.path} className="ts-button ts-button--primary">
                <Trans>Open the Model module</Trans>
              </Link>
            )
          }
        />
      </div>
    </div>
  )
}
