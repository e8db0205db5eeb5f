import { Trans } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { developerSettings } from '../../state/developer-settings'

/**
 * The developer switch of the personal page: shows draw calls, triangles and frame times in the
 * scene status bars. Off by default; remembered by this browser.
 */
export function DeveloperMetricsToggle() {
  const { showsMetrics } = useSnapshot(developerSettings)
  return (
    <section className="ts-developer-toggle">
      <h2 className="ts-developer-toggle__title">
        <Trans>For developers</Trans>
      </h2>
      <label className="ts-developer-toggle__option">
        <input
          type="checkbox"
          checked={showsMetrics}
          onChange={(event) => {
            developerSettings.showsMetrics = event.target.checked
          }}
        />
        <Trans>
          Show rendering metrics (draw calls, triangles, frame time) in scene status bars
        </Trans>
      </label>
    </section>
  )
}
