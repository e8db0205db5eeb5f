import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { connectSessionTimeout } from './app/session-timeout'
import { installTestApi } from './app/test-api'
import { activateLanguage, initialLanguage } from './i18n/i18n'
import { syncSessionAcrossTabs } from './state/session'

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html has no #root element')

// Before anything calls the server: the clients send the session's token and report '2011'.
connectSessionTimeout()
installTestApi()
syncSessionAcrossTabs()
// The catalog loads before the first render so no screen ever shows untranslated text.
await activateLanguage(initialLanguage())
createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
