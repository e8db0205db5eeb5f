import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useCallback, useId, useRef, useState } from 'react'
import { isMessageId, type MessageParam } from '../../../contract/messages'
import type { TemplateListItem } from '../../api/templates'
import { ApiError } from '../../api/client'
import { Button, Dialog, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import { serverMessageText } from '../feedback/server-messages'
import { PagedSelect } from './PagedSelect'
import { serverTemplateServices, type TemplateServices } from './template-services'
import './templates.css'
import { templateNameText } from '../../i18n/library-names'

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

/** One bad cell of a refused batch file, as the refusal's `datum.details` lists it. */
interface BatchRowError {
  row: number
  column: string
  message: string
  messageId?: string
  params?: Record<string, MessageParam>
}

/** What checking an uploaded file found. */
type BatchCheck = { rowCount: number; columns: string[] } | { errors: BatchRowError[] }

function rowErrorsOf(error: unknown): BatchRowError[] {
  if (!(error instanceof ApiError)) return []
  const details = (error.datum as { details?: unknown } | null)?.details
  if (!Array.isArray(details)) return []
  return details.filter(
    (detail): detail is BatchRowError =>
      typeof (detail as BatchRowError | null)?.row === 'number' &&
      typeof (detail as BatchRowError).column === 'string',
  )
}

/** The reason of a bad cell in the user's language (the server's English for an unknown id). */
function rowReason(error: BatchRowError): string {
  if (!isMessageId(error.messageId)) return error.message
  return serverMessageText({
    code: '',
    messageId: error.messageId,
    params: error.params ?? {},
    datum: null,
  })
}

/**
 * The upload window for a POI template file (SPEC §2): choose the POI category (the template a
 * POI is made from), download its batch XLSX (the POI fields plus the template's static
 * attributes, explained on a second sheet in the user's language), fill it in and upload it
 * back; every bad cell is listed by row and column, and nothing is kept while any row is bad.
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
  const { t } = useLingui()
  const [category, setCategory] = useState<TemplateListItem | null>(null)
  const [isDownloading, setIsDownloading] = useState(false)
  const [isUploading, setIsUploading] = useState(false)
  const [check, setCheck] = useState<BatchCheck | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const inputId = useId()
  const loadTemplates = useCallback(
    (pageNo: number, pageSize: number) => services.listTemplates({ pageNo, pageSize }),
    [services],
  )
  const input = useRef<HTMLInputElement>(null)

  async function download() {
    if (!category) {
      toast.warning(t`Select the POI category`)
      return
    }
    setIsDownloading(true)
    try {
      const file = await services.downloadBatchFile(category.id)
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
      setCheck({ rowCount: answer.rowCount, columns: answer.columns })
      toast.success(t`Uploaded.`)
    } catch (error) {
      // a refused file lists its bad cells in the refusal's datum
      const errors = rowErrorsOf(error)
      if (errors.length > 0) setCheck({ errors })
      else {
        setFailure(errorText(error))
        showErrorToast(error)
      }
    } finally {
      setIsUploading(false)
    }
  }

  return (
    <div className="ts-batch-file" data-testid="poi-template-file">
      <PagedSelect<TemplateListItem>
        label={<Trans>POI category</Trans>}
        placeholder={t`Choose the POI category`}
        loadPage={loadTemplates}
        labelOf={(template) => `${templateNameText(template)} (${template.poicategory_code})`}
        value={category}
        onChange={(next) => {
          setCategory(next)
          setCheck(null)
          setFailure(null)
        }}
        testId="batch-file-category"
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
      {check && <BatchCheckResult check={check} />}
    </div>
  )
}

function BatchCheckResult({ check }: { check: BatchCheck }) {
  if (!('errors' in check)) {
    const count = check.rowCount
    return (
      <p className="ts-batch-file__ok" role="status" data-testid="batch-file-result">
        <Trans>{count} rows checked, no errors.</Trans>
      </p>
    )
  }
  const errorCount = check.errors.length
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
            <tr key={`${error.row}-${error.column}-${error.message}`}>
              <td>{error.row}</td>
              <td>{error.column}</td>
              <td>{rowReason(error)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
