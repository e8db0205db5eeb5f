import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { renderSVG } from 'uqr'
import { projectRoutes } from '../../../contract/project'
import { api } from '../../api'
import { type CaseDetail, findCaseDetails } from '../../api/cases'
import { getProjectShareUrl, getProjectToken } from '../../api/project'
import {
  addCapture,
  type Capture,
  type CaptureCamera,
  deleteCapture,
  listCaptures,
  reorderCaptures,
  updateCapture,
} from '../../api/visit'
import { errorText } from '../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../engine-bridge'
import { currentProject } from '../../state/project'
import { Button, confirmDelete, EmptyState, NumberInput, Spinner, toast } from '../../ui'
import { movedOrder, startTour, type Tour } from './capture-tour'
import { DwellField } from './DwellField'
import { flyToView } from './tour-flight'
import { absoluteShareUrl, kioskIdleSeconds, kioskLinkOf } from '../preview/preview-address'
import { projectOfCase } from '../project-case/case-project'
import { projectTexts } from '../../i18n/library-names'
import './visit.css'

/** The QR code of a text, as an SVG data address for an `<img>`. */
function qrCodeSource(text: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(text, { border: 2 }))}`
}

/**
 * Link browsing (`/bim4/visit/link`): a share link of the project with a new project token,
 * copied with a success or failure message, its QR code, the kiosk variant (its idle time before
 * the tour is part of the link, docs/api/preview.md), and revoking every link of the project
 * (open previews end within a minute).
 */
export function VisitLinkPanel() {
  const { t } = useLingui()
  const { projectId } = useSnapshot(currentProject)
  const [link, setLink] = useState<string | null>(null)
  const [isBusy, setBusy] = useState(false)
  const [idleSeconds, setIdleSeconds] = useState<number>(kioskIdleSeconds.default)

  async function createLink() {
    if (!projectId) return
    setBusy(true)
    try {
      setLink(absoluteShareUrl((await getProjectShareUrl(projectId)).url))
    } catch (error) {
      toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text)
      toast.success(t`Copied.`)
    } catch {
      toast.error(t`Copy failed. Select the link and copy it by hand.`)
    }
  }

  async function revoke() {
    if (!projectId) return
    const isSure = await confirmDelete({ itemName: t`every share link of this project` })
    if (!isSure) return
    try {
      await api.call(projectRoutes.revokeProjectTokens, { id: projectId })
      setLink(null)
      toast.success(t`The links were revoked. Open previews end within a minute.`)
    } catch (error) {
      toast.error(errorText(error))
    }
  }

  const kioskLink = link ? kioskLinkOf(link, idleSeconds) : null
  return (
    <div className="ts-visit">
      <p className="ts-visit__hint">
        <Trans>
          Anyone with the link sees the project read-only, without signing in, until you revoke it.
        </Trans>
      </p>
      <Button onClick={createLink} disabled={isBusy}>
        {link ? <Trans>Create a new link</Trans> : <Trans>Create share link</Trans>}
      </Button>
      {link && kioskLink && (
        <>
          <label className="ts-visit__field">
            <span>
              <Trans>Share link</Trans>
            </span>
            <input
              readOnly
              value={link}
              data-testid="share-link"
              onFocus={(e) => e.target.select()}
            />
          </label>
          <div className="ts-visit__row">
            <Button onClick={() => copy(link)}>
              <Trans>Copy link</Trans>
            </Button>
            <a href={link} target="_blank" rel="noreferrer">
              <Trans>Open preview</Trans>
            </a>
            <a href={kioskLink} target="_blank" rel="noreferrer">
              <Trans>Open kiosk mode</Trans>
            </a>
          </div>
          <NumberInput
            label={t`Kiosk tour after idle time`}
            value={idleSeconds}
            onChange={setIdleSeconds}
            min={kioskIdleSeconds.min}
            max={kioskIdleSeconds.max}
            step={1}
            precision={0}
            unit={t`s`}
          />
          <img
            className="ts-visit__qr"
            src={qrCodeSource(link)}
            alt={t`QR code of the share link`}
          />
        </>
      )}
      <Button variant="secondary" onClick={revoke}>
        <Trans>Revoke all links</Trans>
      </Button>
    </div>
  )
}

/**
 * Preview (`/bim4/visit/preview`): screen captures of the current view, listed in tour order,
 * reordered by drag or by the arrow buttons (the keyboard's way), deleted after confirmation,
 * flown back to, and played as the building's tour.
 */
export function VisitCapturesPanel() {
  const { t } = useLingui()
  const engine = useEngine()
  const { projectId } = useSnapshot(currentProject)
  const [captures, setCaptures] = useState<Capture[] | null>(null)
  const [isBusy, setBusy] = useState(false)
  const [tour, setTour] = useState<Tour | null>(null)
  // the place of the capture being dragged, and of the one it would be dropped on
  const dragged = useRef<number | null>(null)
  const [dropIndex, setDropIndex] = useState<number | null>(null)

  useEffect(() => {
    if (!projectId) return
    const controller = new AbortController()
    listCaptures(projectId, controller.signal).then(setCaptures, (error: unknown) => {
      if (!controller.signal.aborted) toast.error(errorText(error))
    })
    return () => controller.abort()
  }, [projectId])
  useEffect(() => () => tour?.stop(), [tour])

  const flyTo = (capture: Capture) => flyToView(engine, capture.camera)

  async function capture() {
    if (!projectId || !captures) return
    setBusy(true)
    try {
      // copied now: the store's camera is updated in place while the picture is taken
      const { position, target } = sceneStore.building.camera
      const camera: CaptureCamera = { position: [...position], target: [...target] }
      const { png } = await engine.run('building.capturePng', { maxWidth: 1280 })
      const saved = await addCapture({
        projectId,
        name: t`View ${captures.length + 1}`,
        camera,
        png,
      })
      setCaptures([...captures, saved])
      toast.success(t`Capture saved.`)
    } catch (error) {
      toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  async function move(index: number, delta: number) {
    if (!projectId || !captures) return
    try {
      setCaptures(await reorderCaptures(projectId, movedOrder(captures, index, delta)))
    } catch (error) {
      toast.error(errorText(error))
    }
  }

  async function changeDwell(item: Capture, dwellSeconds: number) {
    try {
      const saved = await updateCapture({ id: item.id, dwellSeconds })
      setCaptures((current) =>
        current ? current.map((each) => (each.id === saved.id ? saved : each)) : current,
      )
      // a running tour keeps the list it started with: start it again with the new dwell
      if (tour) tour.stop()
      setTour(null)
      toast.success(t`Saved.`)
    } catch (error) {
      toast.error(errorText(error))
      throw error
    }
  }

  async function remove(item: Capture) {
    if (!(await confirmDelete({ itemName: item.name }))) return
    try {
      setCaptures(await deleteCapture(item.id))
    } catch (error) {
      toast.error(errorText(error))
    }
  }

  function toggleTour() {
    if (tour) {
      tour.stop()
      setTour(null)
    } else if (captures && captures.length > 0) {
      setTour(startTour(captures, flyTo))
    }
  }

  if (!captures) return <Spinner label={t`Loading captures`} />
  return (
    <div className="ts-visit">
      <div className="ts-visit__row">
        <Button onClick={capture} disabled={isBusy}>
          <Trans>Screen capture</Trans>
        </Button>
        <Button variant="secondary" onClick={toggleTour} disabled={captures.length === 0}>
          {tour ? <Trans>Stop tour</Trans> : <Trans>Play tour</Trans>}
        </Button>
      </div>
      {captures.length === 0 ? (
        <EmptyState title={<Trans>No captures yet. Capture the view to start a tour.</Trans>} />
      ) : (
        <>
          <p className="ts-visit__hint">
            <Trans>Drag a capture, or use its arrows, to change the tour order.</Trans>
          </p>
          <ol className="ts-visit__captures" aria-label={t`Captures`}>
            {captures.map((item, index) => (
              <li
                key={item.id}
                className={
                  dropIndex === index && dragged.current !== index
                    ? 'ts-visit__capture ts-visit__capture--drop'
                    : 'ts-visit__capture'
                }
                draggable
                onDragStart={(event) => {
                  dragged.current = index
                  event.dataTransfer.effectAllowed = 'move'
                  event.dataTransfer.setData('text/plain', item.name)
                }}
                onDragOver={(event) => {
                  if (dragged.current === null) return
                  event.preventDefault()
                  setDropIndex(index)
                }}
                onDrop={(event) => {
                  event.preventDefault()
                  const from = dragged.current
                  dragged.current = null
                  setDropIndex(null)
                  if (from !== null && from !== index) void move(from, index - from)
                }}
                onDragEnd={() => {
                  dragged.current = null
                  setDropIndex(null)
                }}
              >
                <button type="button" className="ts-visit__thumb" onClick={() => flyTo(item)}>
                  <img src={item.image_url} alt={item.name} />
                </button>
                <span className="ts-visit__name">{item.name}</span>
                <DwellField
                  name={item.name}
                  seconds={item.dwell_seconds}
                  onSave={(seconds) => changeDwell(item, seconds)}
                />
                <span className="ts-visit__actions">
                  <Button
                    variant="secondary"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t`Move ${item.name} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={index === captures.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t`Move ${item.name} down`}
                  >
                    ↓
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => remove(item)}
                    aria-label={t`Delete ${item.name}`}
                  >
                    <Trans>Delete</Trans>
                  </Button>
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  )
}

/**
 * More cases (`/bim4/visit/moreCase`): the building cases of the gallery admins curate (`/case`),
 * in gallery order with their titles, descriptions and covers, each opened as a preview.
 */
export function MoreCasesPanel() {
  const { t } = useLingui()
  const [cases, setCases] = useState<CaseDetail[] | null>(null)
  useEffect(() => {
    const controller = new AbortController()
    findCaseDetails(controller.signal).then(setCases, () => setCases([]))
    return () => controller.abort()
  }, [])

  async function open(detail: CaseDetail) {
    try {
      const { project_token: token } = await getProjectToken(detail.project_id)
      const query = new URLSearchParams({ project_id: detail.project_id, project_token: token })
      window.open(absoluteShareUrl(`/#/bim4/outPreview?${query}`), '_blank', 'noreferrer')
    } catch (error) {
      toast.error(errorText(error))
    }
  }

  if (!cases) return <Spinner label={t`Loading cases`} />
  const buildings = cases.filter((detail) => detail.project.kind === 'building')
  if (buildings.length === 0) return <EmptyState title={<Trans>No cases yet.</Trans>} />
  return (
    <ul className="ts-visit__cases">
      {buildings.map((detail) => {
        const texts = projectTexts(projectOfCase(detail))
        return (
          <li key={detail.id}>
            {detail.cover && <img className="ts-visit__case-cover" src={detail.cover} alt="" />}
            <strong>{texts.name}</strong>
            <p>{texts.description}</p>
            <Button variant="secondary" onClick={() => open(detail)}>
              <Trans>Open preview</Trans>
            </Button>
          </li>
        )
      })}
    </ul>
  )
}
