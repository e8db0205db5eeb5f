import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { installTestApi } from './app/test-api'
import { activateLanguage, initialLanguage } from './i18n/i18n'
import { syncSessionAcrossTabs } from './state/session'

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html has no #root element')

installTestApi()
syncSessionAcrossTabs()
// The catalog loads before the first render so no screen ever shows untranslated text.
await activateLanguage(initialLanguage())
createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
