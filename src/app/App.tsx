import { Trans } from '@lingui/react/macro'

export function App() {
  return (
    <main>
      <h1>
        <Trans>Welcome to Twinscape</Trans>
      </h1>
    </main>
  )
}
