import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { PoiBatchCellError } from '../../api/pois'
import { errorText } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { PagedSelect } from '../../components/templates/PagedSelect'
import { ApiError } from '../../api/client'
import { type PoiStore, type PoiTemplateInfo, poiStore } from '../../state/pois'
import { Button, Dialog, FileChoiceFace, formatFileSize, Spinner } from '../../ui'
import { type PoiScreenServices, serverPoiScreenServices, templateInfoOf } from './poi-services'
import '../../components/templates/templates.css'
import './pois.css'
import { templateNameText } from '../../i18n/library-names'

/** The bad cells of a refused batch file (the refusal's `datum.details`), or [] for another refusal. */
export function batchCellErrorsOf(error: unknown): PoiBatchCellError[] {
  if (!(error instanceof ApiError)) return []
  const details = (error.datum as { details?: unknown } | null)?.details
  if (!Array.isArray(details)) return []
  return details.filter(
    (detail): detail is PoiBatchCellError =>
      typeof (detail as PoiBatchCellError | null)?.row === 'number' &&
      typeof (detail as PoiBatchCellError).column === 'string',
  )
}

/** What the dialog is doing. */
type Step =
  | { kind: 'choose' }
  | ({ kind: 'checking' } & Upload)
  | { kind: 'checked'; count: number }
  | { kind: 'refused'; cells: PoiBatchCellError[]; message: string }
  | ({ kind: 'adding'; count: number } & Upload)

/** The file's bytes on their way to the server (0 of 0 until the browser reports the first). */
interface Upload {
  sentBytes: number
  totalBytes: number
}

/** Props of {@link PoiBatchAddDialog}. */
export interface PoiBatchAddDialogProps {
  isOpen: boolean
  onClose: () => void
  /** How many POIs were added. */
  onAdded?: (count: number) => void
  store?: PoiStore
  services?: PoiScreenServices
}

/**
 * Batch add POI (SPEC §2): the template the rows are made from, then the filled batch XLSX
 * (downloaded from the template) or a CSV with the same header. The file is checked first (a dry
 * run): every bad cell is listed by row and column and nothing is created; a clean file shows how
 * many POIs it makes, and Add creates them all in one transaction, then reloads the scene's POIs.
 */
export function PoiBatchAddDialog({
  isOpen,
  onClose,
  onAdded,
  store = poiStore,
  services = serverPoiScreenServices,
}: PoiBatchAddDialogProps) {
  const { t } = useLingui()
  const snapshot = useSnapshot(store.state)
  const fileInputId = useId()
  const [template, setTemplate] = useState<{
    id: string
    name: string
    info: PoiTemplateInfo
  } | null>(null)
  const [file, setFile] = useState<File | null>(null)
  const [step, setStep] = useState<Step>({ kind: 'choose' })
  const loadTemplates = useCallback(
    async (pageNo: number, pageSize: number) => {
      const page = await services.listTemplates({ pageNo, pageSize })
      return {
        total: page.total,
        list: page.list.map((item) => ({
          id: item.id,
          name: templateNameText(item),
          info: templateInfoOf(item),
        })),
      }
    },
    [services],
  )

  const send = async (isDryRun: boolean) => {
    const projectId = snapshot.projectId
    if (!projectId || !template || !file) return
    const count = step.kind === 'checked' ? step.count : 0
    const stepOf = (upload: Upload): Step =>
      isDryRun ? { kind: 'checking', ...upload } : { kind: 'adding', count, ...upload }
    setStep(stepOf({ sentBytes: 0, totalBytes: file.size }))
    try {
      const answer = await services.batchCreatePois({
        projectId,
        templateId: template.id,
        file,
        isDryRun,
        onProgress: (sentBytes, totalBytes) => setStep(stepOf({ sentBytes, totalBytes })),
      })
      if (isDryRun) {
        setStep({ kind: 'checked', count: answer.count })
        return
      }
      await store.reload()
      onAdded?.(answer.count)
      setStep({ kind: 'choose' })
      setFile(null)
      onClose()
    } catch (error) {
      const cells = batchCellErrorsOf(error)
      setStep({
        kind: 'refused',
        cells,
        message:
          error instanceof ApiError && error.envelope
            ? serverMessageText(error.envelope)
            : errorText(error),
      })
    }
  }

  const isBusy = step.kind === 'checking' || step.kind === 'adding'
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open && !isBusy) onClose()
      }}
      title={t`Batch add POI`}
      widthPx={560}
      footer={
        <>
          <Button onClick={onClose} disabled={isBusy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            onClick={() => void send(true)}
            disabled={!template || !file || isBusy}
            isBusy={step.kind === 'checking'}
          >
            <Trans>Check the file</Trans>
          </Button>
          <Button
            variant="primary"
            onClick={() => void send(false)}
            disabled={step.kind !== 'checked' || step.count === 0}
            isBusy={step.kind === 'adding'}
          >
            <Trans>Add</Trans>
          </Button>
        </>
      }
    >
      <div className="ts-poi-batch">
        <PagedSelect
          label={<Trans>Template</Trans>}
          placeholder={t`Select the POI category`}
          loadPage={loadTemplates}
          labelOf={(item) => item.name}
          value={template}
          onChange={(item) => {
            setTemplate(item)
            setStep({ kind: 'choose' })
          }}
          testId="poi-batch-template"
        />
        <div className="ts-poi-batch__file">
          <label htmlFor={fileInputId}>
            <Trans>Filled batch file (.xlsx or .csv)</Trans>
          </label>
          <input
            id={fileInputId}
            type="file"
            className="ts-visually-hidden"
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null)
              setStep({ kind: 'choose' })
            }}
          />
          <label htmlFor={fileInputId} className="ts-poi-batch__choose">
            <FileChoiceFace fileNames={file ? [file.name] : []} />
          </label>
        </div>
        <div aria-live="polite">
          {(step.kind === 'checking' || step.kind === 'adding') &&
            (isUploading(step) ? (
              <UploadProgress upload={step} />
            ) : step.kind === 'checking' ? (
              <Spinner label={t`Checking the rows…`} />
            ) : (
              <p className="ts-poi-batch__status">
                <Spinner sizePx={14} isDecorative />
                <Trans>Adding {step.count} POIs…</Trans>
              </p>
            ))}
          {step.kind === 'checked' &&
            (step.count === 0 ? (
              <p className="ts-poi-batch__status">
                <Trans>The file has no rows to add.</Trans>
              </p>
            ) : (
              <p className="ts-poi-batch__status">
                <Trans>All rows are fine: {step.count} POIs will be added.</Trans>
              </p>
            ))}
          {step.kind === 'refused' && (
            <div className="ts-poi-batch__errors" role="alert">
              <p>
                <Trans>Nothing was added.</Trans> {step.message}
              </p>
              {step.cells.length > 0 && (
                <table>
                  <thead>
                    <tr>
                      <th scope="col">
                        <Trans>Row</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Column</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Problem</Trans>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {step.cells.map((cell) => (
                      <tr key={`${cell.row}:${cell.column}:${cell.messageId}`}>
                        <td>{cell.row}</td>
                        <td>{cell.column}</td>
                        <td>
                          {serverMessageText({
                            code: '400',
                            messageId: cell.messageId,
                            params: cell.params,
                            datum: null,
                          })}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          )}
        </div>
      </div>
    </Dialog>
  )
}

/** Whether bytes of the file are still on their way (the server works on the rows after). */
function isUploading(upload: Upload): boolean {
  return upload.totalBytes > 0 && upload.sentBytes < upload.totalBytes
}

/** The upload's bytes as a progress bar and "sent of total". */
function UploadProgress({ upload }: { upload: Upload }) {
  const { t } = useLingui()
  const sent = formatFileSize(upload.sentBytes)
  const total = formatFileSize(upload.totalBytes)
  return (
    <div className="ts-poi-batch__upload" data-testid="poi-batch-upload">
      <progress max={upload.totalBytes} value={upload.sentBytes} aria-label={t`Upload progress`} />
      <p className="ts-poi-batch__status">
        <Trans>
          Uploading the file: {sent} of {total}
        </Trans>
      </p>
    </div>
  )
}
