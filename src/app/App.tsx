import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { subscribeKey } from 'valtio/utils'
import { Router } from 'wouter'
import { ParticleBackground } from '../components/background/ParticleBackground'
import { currentProject } from '../state/project'
import { UiRoot, uploadStore } from '../ui'
import { AppRoutes } from './AppRoutes'
import { useHashPath } from './hash-location'
import { type AppServices, defaultServices, ServicesProvider } from './services'

// The upload window lists one project's files: opening another one clears what had finished.
subscribeKey(currentProject, 'projectId', () => uploadStore.clearFinished())

/** Props of {@link App}. */
export interface AppProps {
  /** The server calls of the frame; tests pass their own. */
  services?: AppServices
}

/**
 * The console: lingui, hash routing (queries inside the hash, see hash-location.ts), the widget
 * kit's hosts, the particle background behind every page, and the guarded routes.
 */
export function App({ services = defaultServices }: AppProps) {
  return (
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <UiRoot>
          <Router hook={useHashPath}>
            <ParticleBackground />
            <AppRoutes />
          </Router>
        </UiRoot>
      </ServicesProvider>
    </I18nProvider>
  )
}
