import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { type Camera, findCameras } from '../../api/video'
import { ApiError } from '../../api/client'
import { errorText } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { VideoPlayer } from './VideoPlayer'
import './video.css'

/**
 * A project's cameras and a wall of their videos (issue 17 §8): each camera is a button that
 * opens its player; several play at once; closing one stops its stream. `openPoiIds` opens
 * players from outside (an event linkage opening its camera).
 */
export function CameraVideos(props: {
  projectId: string
  projectToken?: string
  openPoiIds?: readonly string[]
}) {
  const { t } = useLingui()
  const [cameras, setCameras] = useState<Camera[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [open, setOpen] = useState<readonly string[]>(props.openPoiIds ?? [])
  const { projectId, projectToken } = props

  useEffect(() => {
    const controller = new AbortController()
    setCameras(null)
    findCameras(projectId, {
      signal: controller.signal,
      ...(projectToken === undefined ? {} : { projectToken }),
    })
      .then(setCameras)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setFailure(
          error instanceof ApiError && error.envelope
            ? serverMessageText(error.envelope)
            : errorText(error),
        )
      })
    return () => controller.abort()
  }, [projectId, projectToken])

  useEffect(() => {
    if (props.openPoiIds === undefined) return
    setOpen((current) => [...new Set([...current, ...(props.openPoiIds ?? [])])])
  }, [props.openPoiIds])

  if (failure !== null) return <p role="alert">{failure}</p>
  if (cameras === null) return <p>{t`Loading cameras…`}</p>
  if (cameras.length === 0) {
    return (
      <p>
        <Trans>No cameras yet: give a POI a stream address (stream_url) to see it here.</Trans>
      </p>
    )
  }
  const toggle = (poiId: string) =>
    setOpen((current) =>
      current.includes(poiId) ? current.filter((id) => id !== poiId) : [...current, poiId],
    )
  return (
    <section aria-label={t`Surveillance video`}>
      <ul className="ts-camera-list">
        {cameras.map((camera) => (
          <li key={camera.poi_id}>
            <button
              type="button"
              aria-pressed={open.includes(camera.poi_id)}
              onClick={() => toggle(camera.poi_id)}
            >
              {camera.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="ts-video-wall">
        {cameras
          .filter((camera) => open.includes(camera.poi_id))
          .map((camera) => (
            <VideoPlayer
              key={camera.poi_id}
              title={camera.name}
              source={camera.play}
              problem={camera.problem}
              onClose={() => toggle(camera.poi_id)}
            />
          ))}
      </div>
    </section>
  )
}
