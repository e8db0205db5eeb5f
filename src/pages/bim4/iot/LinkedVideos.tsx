import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { Button } from '../../../ui'
import { CameraVideos } from '../../video/CameraVideos'
import { dismissLinkage, linkageStore } from './linkage-store'

/**
 * What a fired event linkage opened, over the stage (issue 17 item 6): the linked cameras'
 * videos (the shared `CameraVideos` wall, those POIs opened) and the highlighted areas by name.
 * Closing it stops and frees the players.
 */
export function LinkedVideos({ projectId }: { projectId: string }) {
  const { t } = useLingui()
  const linkage = useSnapshot(linkageStore)
  if (linkage.openPoiIds.length === 0 && linkage.highlightedAreas.length === 0) return null
  return (
    <aside className="ts-linked-videos" aria-label={t`Event linkage`} data-testid="linked-videos">
      <header className="ts-linked-videos__head">
        <strong>
          <Trans>Event linkage</Trans>
        </strong>
        <Button variant="ghost" onClick={dismissLinkage} aria-label={t`Close the linkage`}>
          <Trans>Close</Trans>
        </Button>
      </header>
      {linkage.highlightedAreas.length > 0 && (
        <ul className="ts-linked-videos__areas" aria-label={t`Linked areas`}>
          {linkage.highlightedAreas.map((area) => (
            <li key={area.id} className="ts-linked-videos__area">
              {area.name}
            </li>
          ))}
        </ul>
      )}
      {linkage.openPoiIds.length > 0 && (
        <CameraVideos projectId={projectId} openPoiIds={linkage.openPoiIds} />
      )}
    </aside>
  )
}
