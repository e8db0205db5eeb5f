import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { getProjectShareUrl } from '../../api/project'
import { errorText } from '../../components/feedback/error-text'
import { currentProject } from '../../state/project'
import { Button, toast } from '../../ui'
import { embedMessageType } from '../preview/embed-api'
import { absoluteShareUrl } from '../preview/preview-address'

/** The snippet a developer copies into their page. */
function snippetOf(link: string): string {
  return `<iframe id="twin" src="${link}&embed_origin=https://your.site" width="960" height="540"></iframe>
<script>
  const twin = document.getElementById('twin').contentWindow
  const send = (command, args) =>
    twin.postMessage({ type: '${embedMessageType}', id: crypto.randomUUID(), command, args }, '${new URL(link).origin}')
  window.addEventListener('message', (event) => {
    if (event.data?.type !== '${embedMessageType}') return
    if (event.data.event === 'pick') console.log('picked', event.data.data)
  })
  // send('flyToPoi', { poiId: '…' }); send('selectFloor', { floor: '1F' }); send('startTour')
</script>`
}

/**
 * Function expansion's API demo (issue 19): the project's preview embedded live in an
 * `<iframe>`, driven by the documented postMessage API (src/pages/preview/embed-api.ts), with the
 * snippet to copy and the events the preview sends (ready, pick, tour) as they arrive.
 */
export function EmbedDemoPanel() {
  const { t } = useLingui()
  const { projectId } = useSnapshot(currentProject)
  const [link, setLink] = useState<string | null>(null)
  const [floors, setFloors] = useState<Array<{ id: string; name: string }>>([])
  const [log, setLog] = useState<string[]>([])
  const [poiId, setPoiId] = useState('')
  const frame = useRef<HTMLIFrameElement>(null)

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; event?: string; data?: unknown; ok?: boolean }
      if (event.source !== frame.current?.contentWindow || data?.type !== embedMessageType) return
      if (data.event === 'ready') {
        setFloors((data.data as { floors?: Array<{ id: string; name: string }> }).floors ?? [])
      }
      setLog((lines) => [JSON.stringify(data), ...lines].slice(0, 20))
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [])

  async function open() {
    if (!projectId) return
    try {
      setLink(absoluteShareUrl((await getProjectShareUrl(projectId)).url))
    } catch (error) {
      toast.error(errorText(error))
    }
  }
  const send = (command: string, args?: unknown) =>
    frame.current?.contentWindow?.postMessage(
      { type: embedMessageType, id: String(Date.now()), command, args },
      window.location.origin,
    )

  return (
    <section className="ts-visit" aria-label={t`API demo`}>
      <h2>
        <Trans>Embed the preview in your page</Trans>
      </h2>
      <p className="ts-visit__hint">
        <Trans>
          Put the share link in an iframe and drive it with postMessage: fly to a POI, switch the
          floor, start or stop the tour, and listen to picks. Add your site to embed_origin.
        </Trans>
      </p>
      {!link ? (
        <Button onClick={open}>
          <Trans>Open the live example</Trans>
        </Button>
      ) : (
        <>
          <pre className="ts-visit__snippet" data-testid="embed-snippet">
            {snippetOf(link)}
          </pre>
          <iframe
            ref={frame}
            className="ts-visit__embed"
            src={link}
            title={t`Embedded preview`}
            data-testid="embed-frame"
          />
          <div className="ts-visit__row">
            <Button variant="secondary" onClick={() => send('startTour')}>
              <Trans>Start tour</Trans>
            </Button>
            <Button variant="secondary" onClick={() => send('stopTour')}>
              <Trans>Stop tour</Trans>
            </Button>
            <Button variant="secondary" onClick={() => send('selectFloor', { floor: null })}>
              <Trans>All floors</Trans>
            </Button>
            {floors.map((floor) => (
              <Button
                key={floor.id}
                variant="secondary"
                onClick={() => send('selectFloor', { floor: floor.id })}
              >
                {floor.name}
              </Button>
            ))}
          </div>
          <div className="ts-visit__row">
            <input
              aria-label={t`POI id`}
              value={poiId}
              onChange={(event) => setPoiId(event.target.value)}
            />
            <Button variant="secondary" onClick={() => send('flyToPoi', { poiId })}>
              <Trans>Fly to POI</Trans>
            </Button>
          </div>
          <ol className="ts-visit__log" aria-label={t`Messages from the preview`}>
            {log.map((line, index) => (
              // newest first; lines repeat, so their place is their key
              // biome-ignore lint/suspicious/noArrayIndexKey: a log of repeated lines
              <li key={index}>{line}</li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}
