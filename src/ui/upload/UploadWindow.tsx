import { Trans, useLingui } from '@lingui/react/macro'
import { Progress, ScrollArea } from 'radix-ui'
import { useId } from 'react'
import { useSnapshot } from 'valtio'
import { formatFileSize } from './file-size'
import {
  type UploadRow,
  uploadCounts,
  uploadListScrollThreshold,
  uploadStore,
} from './upload-store'
import './UploadWindow.css'

/**
 * The floating upload-progress window (SPEC §2 "Upload-progress window"), drawn from
 * {@link uploadStore}. Mount it once in the signed-in shell; it shows itself when opened.
 */
export function UploadWindow() {
  const { t } = useLingui()
  const titleId = useId()
  const upload = useSnapshot(uploadStore)
  if (!upload.isOpen) return null
  const { doneCount, totalCount } = uploadCounts(upload.rows)
  const isScrollable = upload.rows.length > uploadListScrollThreshold
  const list = (
    <ul className="ts-upload__list">
      {upload.rows.map((row) => (
        <UploadRowItem key={row.id} row={row} />
      ))}
    </ul>
  )
  return (
    <section
      className="ts-upload"
      aria-labelledby={titleId}
      data-state={upload.isMinimised ? 'minimised' : 'maximised'}
    >
      <header className="ts-upload__header">
        <h2 id={titleId} className="ts-upload__title">
          <Trans>upload list</Trans>
        </h2>
        <button
          type="button"
          className="ts-upload__icon-button"
          aria-label={upload.isMinimised ? t`Maximise` : t`Minimise`}
          aria-expanded={!upload.isMinimised}
          onClick={() => uploadStore.toggleMinimised()}
        >
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <path d={upload.isMinimised ? 'M2 8l4-4 4 4' : 'M2 4l4 4 4-4'} />
          </svg>
        </button>
        <button
          type="button"
          className="ts-upload__icon-button"
          aria-label={t`Close`}
          onClick={() => uploadStore.close()}
        >
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <path d="M2 2l8 8M10 2l-8 8" />
          </svg>
        </button>
      </header>
      {!upload.isMinimised && (
        <div className="ts-upload__body">
          <p className="ts-upload__summary" aria-live="polite">
            {totalCount === 0 ? (
              <Trans>no files uploaded yet</Trans>
            ) : doneCount === totalCount ? (
              <Trans>
                uploaded ({doneCount}/{totalCount})
              </Trans>
            ) : (
              <Trans>
                uploading ({doneCount}/{totalCount})
              </Trans>
            )}
          </p>
          {isScrollable ? (
            <ScrollArea.Root className="ts-upload__scroll" data-scrollable="">
              <ScrollArea.Viewport className="ts-upload__viewport">{list}</ScrollArea.Viewport>
              <ScrollArea.Scrollbar className="ts-upload__scrollbar" orientation="vertical">
                <ScrollArea.Thumb className="ts-upload__scroll-thumb" />
              </ScrollArea.Scrollbar>
            </ScrollArea.Root>
          ) : (
            list
          )}
        </div>
      )}
    </section>
  )
}

function UploadRowItem({ row }: { row: Readonly<UploadRow> }) {
  const { t } = useLingui()
  const fileName = row.name
  return (
    <li className={`ts-upload__row ts-upload__row--${row.status}`} data-status={row.status}>
      <span className="ts-upload__name" title={row.name}>
        {row.name}
      </span>
      <span className="ts-upload__size">
        {row.status === 'uploading' && row.sentBytes !== undefined
          ? `${formatFileSize(row.sentBytes)} / ${formatFileSize(row.sizeBytes)}`
          : formatFileSize(row.sizeBytes)}
      </span>
      <span
        className="ts-upload__state"
        title={row.status === 'failure' ? row.errorMessage?.() : undefined}
      >
        {row.status === 'ready' && <Trans>waiting</Trans>}
        {row.status === 'uploading' && `${Math.round(row.progressPercent)}%`}
        {row.status === 'processing' && (row.processingLabel?.() ?? <Trans>processing</Trans>)}
        {row.status === 'success' && <Trans>success</Trans>}
        {row.status === 'failure' && <Trans>failure</Trans>}
      </span>
      {row.status === 'failure' && row.errorMessage && (
        <span className="ts-upload__reason" role="note">
          {row.errorMessage()}
        </span>
      )}
      {row.status === 'uploading' && (
        <Progress.Root
          className="ts-upload__progress"
          value={row.progressPercent}
          max={100}
          aria-label={t`Upload progress of ${fileName}`}
        >
          <Progress.Indicator
            className="ts-upload__progress-bar"
            style={{ transform: `translateX(-${100 - row.progressPercent}%)` }}
          />
        </Progress.Root>
      )}
    </li>
  )
}
