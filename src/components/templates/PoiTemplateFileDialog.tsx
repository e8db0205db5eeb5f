import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import type { BatchFileCheck, PoiCategory } from '../../api/templates'
import { Button, Dialog, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import { CategoryPageSelect } from './CategoryPageSelect'
import { serverTemplateServices, type TemplateServices } from './template-services'
import './templates.css'

/** Hands a downloaded file to the browser's save flow. */
function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // the click has started the download; the URL is no longer needed after this tick
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/**
 * The upload window for a POI template file (SPEC §2): choose a POI category, download its
 * batch XLSX (POI fields plus the template's static attributes, explained on a second sheet in
 * the user's language), fill it in and upload it back; every bad cell is listed by row and
 * column, and nothing is created while any row is bad.
 */
export function PoiTemplateFileDialog({
  isOpen,
  onOpenChange,
  services = serverTemplateServices,
}: {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  services?: TemplateServices
}) {
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={<Trans>Upload a POI template file</Trans>}
      widthPx={640}
    >
      {isOpen && <PoiTemplateFile services={services} />}
    </Dialog>
  )
}

function PoiTemplateFile({ services }: { services: TemplateServices }) {
  const { t, i18n } = useLingui()
  const [category, setCategory] = useState<PoiCategory | null>(null)
  const [isDownloading, setIsDownloading] = useState(false)
  const [isUploading, setIsUploading] = useState(false)
  const [check, setCheck] = useState<BatchFileCheck | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const inputId = useId()
  const input = useRef<HTMLInputElement>(null)

  async function download() {
    if (!category) {
      toast.warning(t`Select the POI category`)
      return
    }
    setIsDownloading(true)
    try {
      const file = await services.downloadBatchFile(category.id, i18n.locale)
      saveFile(file.blob, file.fileName)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsDownloading(false)
    }
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    if (!category) {
      toast.warning(t`Select the POI category`)
      return
    }
    if (!/\.xlsx$/i.test(file.name)) {
      toast.warning(t`Only XLSX files can be uploaded.`)
      return
    }
    setIsUploading(true)
    setCheck(null)
    setFailure(null)
    try {
      const answer = await services.uploadBatchFile(category.id, file)
      setCheck(answer)
      if (answer.errors.length === 0) toast.success(t`Uploaded.`)
    } catch (error) {
      // a refused file may still list its bad rows in the answer's datum
      const datum = (error as { datum?: unknown }).datum as Partial<BatchFileCheck> | null
      if (datum && Array.isArray(datum.errors)) {
        setCheck({ rowCount: datum.rowCount ?? 0, errors: datum.errors })
      } else setFailure(errorText(error))
      showErrorToast(error)
    } finally {
      setIsUploading(false)
    }
  }

  return (
    <div className="ts-batch-file" data-testid="poi-template-file">
      <CategoryPageSelect
        label={<Trans>POI category</Trans>}
        value={category}
        onChange={(next) => {
          setCategory(next)
          setCheck(null)
          setFailure(null)
        }}
        services={services}
      />
      <ol className="ts-batch-file__steps">
        <li>
          <Trans>Download the batch file of the chosen category and fill in one POI a row.</Trans>
          <Button onClick={() => void download()} isBusy={isDownloading}>
            <Trans>Download the batch file</Trans>
          </Button>
        </li>
        <li>
          <Trans>Upload the filled file; it is checked row by row.</Trans>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="ts-visually-hidden"
            onChange={(event) => void upload(event)}
            data-testid="batch-file-input"
          />
          <Button
            variant="primary"
            onClick={() => {
              if (!category) toast.warning(t`Select the POI category`)
              else input.current?.click()
            }}
            isBusy={isUploading}
          >
            <Trans>Upload the filled file</Trans>
          </Button>
        </li>
      </ol>
      {failure && (
        <p className="ts-field__message ts-field__message--error" role="alert">
          {failure}
        </p>
      )}
      {check && <BatchCheck check={check} />}
    </div>
  )
}

function BatchCheck({ check }: { check: BatchFileCheck }) {
  const count = check.rowCount
  const errorCount = check.errors.length
  if (errorCount === 0) {
    return (
      <p className="ts-batch-file__ok" role="status" data-testid="batch-file-result">
        <Trans>{count} rows checked, no errors.</Trans>
      </p>
    )
  }
  return (
    <div className="ts-batch-file__errors" data-testid="batch-file-result">
      <p role="alert">
        <Trans>
          The file has {errorCount} errors; nothing was created. Correct them and upload again.
        </Trans>
      </p>
      <table className="ts-template-table">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Row</Trans>
            </th>
            <th scope="col">
              <Trans>Column</Trans>
            </th>
            <th scope="col">
              <Trans>Reason</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {check.errors.map((error) => (
            <tr key={`${error.row}-${error.column}-${error.reason}`}>
              <td>{error.row}</td>
              <td>{error.column}</td>
              <td>{error.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
