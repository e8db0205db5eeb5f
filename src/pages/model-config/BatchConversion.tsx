import { Trans, useLingui } from '@lingui/react/macro'
import { zipSync } from 'fflate'
import { type ChangeEvent, useRef, useState } from 'react'
import { buildingRoutes } from '../../../contract/building'
import { convertedModelPath } from '../../api/building'
import { postWithProgress } from '../../api/resumable-upload'
import { errorText } from '../../components/feedback/error-text'
import { Button, formatFileSize, toast } from '../../ui'
import { useExternalStore } from '../../ui/external-store'
import { type BatchItem, type ConvertOne, createBatchQueue, zipEntryNames } from './batch-queue'

/** The files a batch takes: DAE and FBX one by one, and self-contained glTF (.glb, embedded .gltf). */
const batchAccept = '.dae,.fbx,.glb,.gltf'

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase()

/** One file to SBM through the conversion route of its format, with real upload progress. */
const convertOne: ConvertOne = (file, onProgress) => {
  const form = new FormData()
  if (['glb', 'gltf'].includes(extensionOf(file.name))) {
    form.append('option_type', 'add')
    form.append('glbf_arr', file, file.name)
    return postWithProgress(buildingRoutes.uploadGltfForSbm, form, onProgress)
  }
  form.append('file', file, file.name)
  return postWithProgress(buildingRoutes.convertSbm, form, onProgress)
}

/**
 * Batch format conversion (issue 21 item 3): many DAE/FBX/glTF files queued at once, each with
 * its upload progress and its result or the server's reason, failures retried, and every
 * converted SBM downloaded in one ZIP.
 */
export function BatchConversion() {
  const { t } = useLingui()
  const [queue] = useState(() => createBatchQueue(convertOne))
  const items = useExternalStore(queue.store)
  const inputRef = useRef<HTMLInputElement>(null)
  const [isZipping, setZipping] = useState(false)

  const succeeded = items.filter((item) => item.state === 'succeeded')
  const failedCount = items.filter((item) => item.state === 'failed').length
  const doneCount = succeeded.length + failedCount
  const totalCount = items.length

  function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? [])
    event.target.value = ''
    const refused = files.filter(
      (file) => !batchAccept.split(',').includes(`.${extensionOf(file.name)}`),
    )
    if (refused.length > 0) {
      const names = refused.map((file) => file.name).join(', ')
      toast.warning(t`Only DAE, FBX, GLB or glTF files can be converted: ${names}`)
    }
    queue.add(files.filter((file) => !refused.includes(file)))
  }

  async function downloadAll() {
    setZipping(true)
    try {
      const entries: Record<string, Uint8Array> = {}
      const names = zipEntryNames(succeeded.map((item) => item.datum!.downloadName))
      for (const [index, item] of succeeded.entries()) {
        const response = await fetch(convertedModelPath(item.datum!))
        if (!response.ok) throw new Error(`${item.file.name}: ${response.status}`)
        entries[names[index]!] = new Uint8Array(await response.arrayBuffer())
      }
      // SBMs are compressed already: store them
      const zip = zipSync(entries, { level: 0 })
      const url = URL.createObjectURL(new Blob([zip], { type: 'application/zip' }))
      const link = document.createElement('a')
      link.href = url
      link.download = 'converted-models.zip'
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    } catch (error) {
      toast.error(errorText(error))
    } finally {
      setZipping(false)
    }
  }

  return (
    <section className="ts-model-config__batch" data-testid="batch-conversion">
      <h2>
        <Trans>Batch conversion</Trans>
      </h2>
      <p className="ts-model-config__lead">
        <Trans>
          Choose many DAE, FBX, GLB or self-contained glTF files: they are converted one after
          another.
        </Trans>
      </p>
      <div className="ts-model-config__row">
        <Button variant="secondary" onClick={() => inputRef.current?.click()}>
          <Trans>Add files</Trans>
        </Button>
        <input
          ref={inputRef}
          type="file"
          hidden
          multiple
          accept={batchAccept}
          aria-label={t`Model files to convert in a batch`}
          data-testid="batch-file-input"
          onChange={handleFiles}
        />
        {totalCount > 0 && (
          <span data-testid="batch-count">
            <Trans>
              Processed {doneCount} of {totalCount}
            </Trans>
          </span>
        )}
        <Button
          variant="secondary"
          disabled={failedCount === 0}
          onClick={() => queue.retry()}
          data-testid="batch-retry-all"
        >
          <Trans>Retry failed</Trans>
        </Button>
        <Button
          disabled={succeeded.length === 0}
          isBusy={isZipping}
          onClick={() => void downloadAll()}
          data-testid="batch-download-all"
        >
          <Trans>Download all (ZIP)</Trans>
        </Button>
        <Button variant="secondary" disabled={totalCount === 0} onClick={() => queue.clear()}>
          <Trans>Clear</Trans>
        </Button>
      </div>
      {totalCount > 0 && (
        <ul className="ts-plain-list ts-model-config__batch-list">
          {items.map((item) => (
            <BatchRow key={item.id} item={item} onRetry={() => queue.retry(item.id)} />
          ))}
        </ul>
      )}
    </section>
  )
}

function BatchRow({ item, onRetry }: { item: BatchItem; onRetry: () => void }) {
  const { t } = useLingui()
  const stateText: Record<BatchItem['state'], string> = {
    waiting: t`Waiting`,
    uploading: t`Uploading`,
    converting: t`Converting`,
    succeeded: t`Converted`,
    failed: t`Failed`,
  }
  const percent = Math.round(item.uploadFraction * 100)
  const triangleCount = item.datum?.triangleCount ?? 0
  return (
    <li className="ts-model-config__batch-row" data-testid="batch-row" data-state={item.state}>
      <span className="ts-model-config__batch-name">
        {item.file.name} ({formatFileSize(item.file.size)})
      </span>
      <span>{stateText[item.state]}</span>
      {(item.state === 'uploading' || item.state === 'converting') && (
        <progress max={100} value={percent} aria-label={item.file.name} />
      )}
      {item.state === 'succeeded' && item.datum && (
        <>
          <span>
            <Trans>{triangleCount} triangles</Trans>
          </span>
          <a href={convertedModelPath(item.datum)} download={item.datum.downloadName}>
            <Trans>Download SBM</Trans>
          </a>
        </>
      )}
      {item.state === 'failed' && (
        <>
          <span className="ts-model-config__problem" role="alert">
            {errorText(item.error)}
          </span>
          <Button variant="secondary" onClick={onRetry}>
            <Trans>Retry</Trans>
          </Button>
        </>
      )}
    </li>
  )
}
