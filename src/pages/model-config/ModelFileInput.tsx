import { Trans } from '@lingui/react/macro'
import type { ChangeEvent } from 'react'
import { formatFileSize } from '../../ui'

/**
 * One file field of the model-config forms: its label, a button in the console's language (the
 * browser's own file button speaks the browser's language), the chosen files with their sizes,
 * and the field's problem.
 */
export function ModelFileInput({
  field,
  label,
  accept,
  isMultiple,
  files,
  problem,
  disabled,
  onChoose,
}: {
  field: string
  label: string
  accept: string
  isMultiple: boolean
  files: readonly File[]
  problem?: string | undefined
  disabled?: boolean
  onChoose: (files: File[]) => void
}) {
  return (
    <div className="ts-model-config__input">
      <label className="ts-model-config__label">
        <span>{label}</span>
        <input
          type="file"
          className="ts-visually-hidden"
          multiple={isMultiple}
          accept={accept}
          disabled={disabled}
          data-testid={`merge-input-${field}`}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            const chosen = Array.from(event.target.files ?? [])
            event.target.value = ''
            onChoose(chosen)
          }}
        />
        <span className="ts-model-config__choose" aria-hidden="true">
          {isMultiple ? <Trans>Choose files…</Trans> : <Trans>Choose a file…</Trans>}
        </span>
      </label>
      <span className="ts-model-config__files">
        {files.length === 0 ? (
          <Trans>No file chosen</Trans>
        ) : (
          files.map((file) => `${file.name} (${formatFileSize(file.size)})`).join(', ')
        )}
      </span>
      {problem && (
        <span className="ts-model-config__problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  )
}
