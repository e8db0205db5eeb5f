import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { SaveBasemapBody } from '../../../../contract/city'
import type { BasemapFindDatum } from '../../../api/city'
import { ApiError } from '../../../api/client'
import { trackUploadRow } from '../../../api/resumable-upload'
import { useEngine } from '../../../engine-bridge'
import type { Language } from '../../../i18n/languages'
import { Button, formatFileSize, TextField, toast, uploadStore } from '../../../ui'
import { useCanEditCityProject, useCityProjectStore } from '../city-context'
import { engineBasemap, errorMessage } from '../city-project-store'
import { useCityServices } from '../city-services'
import { type BasemapChoice, pmtilesFilePattern, styleUrlProblem } from './basemap-form'

let basemapUploadSequence = 0

/** Why the server's map proxy refused a style address (`datum.reason`), or null. */
function styleRefusalOf(error: unknown): 'host' | 'privateAddress' | 'scheme' | null {
  if (!(error instanceof ApiError)) return null
  const reason = (error.datum as { reason?: unknown } | null)?.reason
  if (reason === 'host' || reason === 'privateAddress') return reason
  return reason === 'scheme' || reason === 'credentials' ? 'scheme' : null
}

function hostOf(address: string): string {
  try {
    return new URL(address).host
  } catch {
    return address
  }
}

/** One of the three kinds a project's basemap can be saved as. */
type BasemapChange =
  | { kind: 'offline' }
  | { kind: 'online'; style_url: string }
  | { kind: 'pmtiles'; pmtiles_id: string }

/**
 * The basemap setting tab: the shipped offline map, an online MapLibre style address, or an
 * uploaded PMTiles file. Each choice is saved for the project and applied to the map at once.
 */
export function BasemapTab() {
  const { t, i18n } = useLingui()
  const store = useCityProjectStore()
  const services = useCityServices()
  const engine = useEngine()
  const { basemap, projectId } = useSnapshot(store)
  const canEdit = useCanEditCityProject()
  const groupName = useId()
  const savedKind = basemap?.setting.kind ?? 'offline'
  const [choice, setChoice] = useState<BasemapChoice>(savedKind)
  const [styleUrl, setStyleUrl] = useState(basemap?.setting.style_url ?? '')
  const [styleUrlError, setStyleUrlError] = useState<string | null>(null)
  const [isSaving, setIsSaving] = useState(false)
  const [isUploading, setIsUploading] = useState(false)
  const uploadInput = useRef<HTMLInputElement>(null)

  // A setting loaded (or saved) elsewhere becomes the form's starting point.
  useEffect(() => {
    setChoice(savedKind)
    setStyleUrl(basemap?.setting.style_url ?? '')
  }, [savedKind, basemap?.setting.style_url])

  async function save(change: BasemapChange): Promise<boolean> {
    if (!projectId) return false
    setIsSaving(true)
    try {
      const body: SaveBasemapBody = { project_id: projectId, ...change }
      const saved: BasemapFindDatum = await services.saveBasemap(body)
      store.basemap = saved
      const isShown = await engine
        .run('city.setBasemap', { basemap: engineBasemap(saved, i18n.locale as Language) })
        .then(
          () => true,
          // Why it failed is in the status bar (snapshot.city.basemap.error); a plain "saved"
          // beside that banner would read as if all went well.
          () => false,
        )
      if (isShown) toast.success(t`Basemap saved.`)
      else
        toast.warning(
          t`Basemap saved, but the map could not show it. See the message above the map.`,
        )
      return true
    } catch (error) {
      const refusal = styleRefusalOf(error)
      if (refusal && change.kind === 'online') {
        const host = hostOf(change.style_url)
        const message =
          refusal === 'host'
            ? t`This server does not allow maps from ${host}. Ask an administrator to add it to the map host list (MAP_PROXY_HOSTS).`
            : refusal === 'privateAddress'
              ? t`This address points into a private network or at the server itself, so it cannot be used as a basemap.`
              : t`Enter an http:// or https:// address.`
        setStyleUrlError(message)
        toast.error(message)
      } else {
        toast.error(errorMessage(error))
      }
      return false
    } finally {
      setIsSaving(false)
    }
  }

  function choose(next: BasemapChoice) {
    setChoice(next)
    if (next === 'offline' && savedKind !== 'offline') void save({ kind: 'offline' })
  }

  function applyStyleUrl() {
    const problem = styleUrlProblem(styleUrl)
    if (problem) {
      setStyleUrlError(
        problem === 'empty'
          ? t`Enter the address of a MapLibre style.`
          : t`Enter an http:// or https:// address.`,
      )
      return
    }
    void save({ kind: 'online', style_url: styleUrl.trim() })
  }

  async function uploadPmtiles(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file || !projectId) return
    basemapUploadSequence += 1
    const rowId = `basemap-${Date.now()}-${basemapUploadSequence}`
    uploadStore.open()
    uploadStore.add({ id: rowId, name: file.name, sizeBytes: file.size })
    const fileName = file.name
    if (!pmtilesFilePattern.test(file.name)) {
      const message = () => t`Only a .pmtiles file can be used as a basemap: ${fileName}`
      uploadStore.update(rowId, { status: 'failure', errorMessage: message })
      toast.error(message())
      return
    }
    setIsUploading(true)
    const row = trackUploadRow(rowId)
    try {
      const { uploadId } = await services.uploadResumable(file, {
        purpose: 'basemap',
        onProgress: row.onProgress,
      })
      const uploaded = await services.uploadBasemap({ projectId, uploadId })
      row.succeed()
      if (store.basemap) store.basemap.files.push(uploaded)
      await save({ kind: 'pmtiles', pmtiles_id: uploaded.id })
    } catch (error) {
      row.fail(error)
      toast.error(errorMessage(error))
    } finally {
      setIsUploading(false)
    }
  }

  const files = basemap?.files ?? []
  return (
    <div className="ts-city-tab" data-testid="city-basemap-tab">
      <fieldset className="ts-city-choices" disabled={isSaving}>
        <legend className="ts-city-tab__heading">
          <Trans>Basemap</Trans>
        </legend>
        <label className="ts-city-choice">
          <input
            type="radio"
            name={groupName}
            value="offline"
            checked={choice === 'offline'}
            onChange={() => choose('offline')}
          />
          <span>
            <Trans>Offline map (shipped, works without internet)</Trans>
          </span>
        </label>
        <label className="ts-city-choice">
          <input
            type="radio"
            name={groupName}
            value="online"
            checked={choice === 'online'}
            onChange={() => choose('online')}
          />
          <span>
            <Trans>Online style address</Trans>
          </span>
        </label>
        <label className="ts-city-choice">
          <input
            type="radio"
            name={groupName}
            value="pmtiles"
            checked={choice === 'pmtiles'}
            onChange={() => choose('pmtiles')}
          />
          <span>
            <Trans>Uploaded PMTiles</Trans>
          </span>
        </label>
      </fieldset>
      {choice === 'online' && (
        <form
          className="ts-city-tab__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            applyStyleUrl()
          }}
        >
          <TextField
            label={<Trans>Style address</Trans>}
            type="url"
            value={styleUrl}
            placeholder="https://example.com/style.json"
            error={styleUrlError ?? undefined}
            onChange={(event) => {
              setStyleUrl(event.target.value)
              setStyleUrlError(null)
            }}
          />
          {canEdit && (
            <Button type="submit" variant="primary" isBusy={isSaving}>
              <Trans>Apply</Trans>
            </Button>
          )}
        </form>
      )}
      {choice === 'pmtiles' && (
        <div className="ts-city-tab__form">
          {files.length === 0 ? (
            <p className="ts-city-tab__hint">
              <Trans>No PMTiles uploaded yet.</Trans>
            </p>
          ) : (
            <ul className="ts-plain-list ts-city-files" aria-label={t`Uploaded PMTiles`}>
              {files.map((file) => {
                const isChosen =
                  basemap?.setting.kind === 'pmtiles' && basemap.setting.pmtiles_id === file.id
                return (
                  <li key={file.id} className="ts-city-files__item">
                    <span>
                      {file.name} ({formatFileSize(file.size_bytes)})
                    </span>
                    {isChosen ? (
                      <span className="ts-city-tree__badge">
                        <Trans>in use</Trans>
                      </span>
                    ) : (
                      canEdit && (
                        <Button
                          isBusy={isSaving}
                          onClick={() => void save({ kind: 'pmtiles', pmtiles_id: file.id })}
                        >
                          <Trans>Use</Trans>
                        </Button>
                      )
                    )}
                  </li>
                )
              })}
            </ul>
          )}
          {canEdit && (
            <Button isBusy={isUploading} onClick={() => uploadInput.current?.click()}>
              <Trans>Upload PMTiles</Trans>
            </Button>
          )}
          <input
            ref={uploadInput}
            type="file"
            accept=".pmtiles"
            hidden
            aria-label={t`Upload PMTiles`}
            onChange={(event) => void uploadPmtiles(event)}
          />
        </div>
      )}
    </div>
  )
}
