import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useRef } from 'react'
import type { BuildingModel } from '../../../../contract/building'
import type { ModelLoadState } from '../../../../engine/api'
import { Spinner, Tooltip } from '../../../ui'
import { modelFileAccept } from './model-files'

/** Props of {@link ModelListItem}. */
export interface ModelListItemProps {
  model: Pick<BuildingModel, 'id' | 'name' | 'role' | 'preview_path'>
  /** Null while the engine has not seen the model (e.g. right after an upload). */
  loadState: ModelLoadState | null
  errorMessage: string | null
  floorName: string | null
  /** Paid projects keep their models (SPEC §4): delete is disabled with the reason. */
  isProjectPaid: boolean
  /** False when the caller may not change the project: update and delete are not offered. */
  canEdit?: boolean
  isBusy: boolean
  onDelete: () => void
  onReplace: (files: File[]) => void
  onFit: () => void
  /** Opens the model form (name, role, floor); not offered without it. */
  onEdit?: () => void
}

function LoadStateIcon({
  loadState,
  errorMessage,
}: Pick<ModelListItemProps, 'loadState' | 'errorMessage'>) {
  const { t } = useLingui()
  if (loadState === null || loadState === 'loading') {
    return (
      <span className="ts-bim4-model__state" data-load-state="loading">
        <Spinner sizePx={14} label={t`Loading`} />
      </span>
    )
  }
  if (loadState === 'success') {
    return (
      <Tooltip content={<Trans>Loaded</Trans>}>
        <span
          className="ts-bim4-model__state ts-bim4-model__state--success"
          data-load-state="success"
          role="img"
          aria-label={t`Loaded`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users get the tooltip
          tabIndex={0}
        >
          <svg viewBox="0 0 16 16" aria-hidden="true">
            <path d="M3 8.5l3 3 7-7" />
          </svg>
        </span>
      </Tooltip>
    )
  }
  const reason = errorMessage ?? t`The model could not be loaded.`
  return (
    <Tooltip content={reason}>
      <span
        className="ts-bim4-model__state ts-bim4-model__state--error"
        data-load-state="error"
        role="img"
        aria-label={t`Failed to load: ${reason}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users get the tooltip
        tabIndex={0}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M4 4l8 8M12 4l-8 8" />
        </svg>
      </span>
    </Tooltip>
  )
}

/**
 * One library item (SPEC §2 "Library items show a preview, a name, a delete action and a
 * load-state icon"), plus "update model" (a new SBM for the same item) and "show" (fit view).
 */
export function ModelListItem({
  model,
  loadState,
  errorMessage,
  floorName,
  isProjectPaid,
  canEdit = true,
  isBusy,
  onDelete,
  onReplace,
  onFit,
  onEdit,
}: ModelListItemProps) {
  const { t } = useLingui()
  const fileInputRef = useRef<HTMLInputElement>(null)
  const modelName = model.name
  const roleLabel = model.role === 'shell' ? t`Shell` : model.role === 'floor' ? t`Floor` : t`Model`

  function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? [])
    event.target.value = ''
    if (files.length > 0) onReplace(files)
  }

  const deleteButton = (
    <button
      type="button"
      className="ts-bim4-model__action ts-bim4-model__action--danger"
      aria-label={t`Delete ${modelName}`}
      aria-disabled={isProjectPaid || isBusy}
      onClick={() => {
        if (!isProjectPaid && !isBusy) onDelete()
      }}
    >
      <svg viewBox="0 0 16 16" aria-hidden="true">
        <path d="M3 4h10M6 4V2.5h4V4M4.5 4l.7 9.5h5.6l.7-9.5" />
      </svg>
    </button>
  )

  return (
    <li className="ts-bim4-model" data-testid="model-item" data-model-id={model.id}>
      <div className="ts-bim4-model__preview">
        {model.preview_path ? (
          <img src={model.preview_path} alt="" loading="lazy" />
        ) : (
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 2l9 5v10l-9 5-9-5V7z M3 7l9 5 9-5 M12 12v10" />
          </svg>
        )}
      </div>
      <div className="ts-bim4-model__text">
        <span className="ts-bim4-model__name" title={model.name}>
          {model.name}
        </span>
        <span className="ts-bim4-model__meta">
          {roleLabel}
          {floorName ? ` · ${floorName}` : ''}
        </span>
      </div>
      <LoadStateIcon loadState={loadState} errorMessage={errorMessage} />
      <div className="ts-bim4-model__actions">
        <Tooltip content={<Trans>Show this model</Trans>}>
          <button
            type="button"
            className="ts-bim4-model__action"
            aria-label={t`Show ${modelName}`}
            disabled={loadState !== 'success'}
            onClick={onFit}
          >
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4" />
            </svg>
          </button>
        </Tooltip>
        {canEdit && (
          <>
            {onEdit && (
              <Tooltip content={<Trans>Edit name, role and floor</Trans>}>
                <button
                  type="button"
                  className="ts-bim4-model__action"
                  aria-label={t`Edit ${modelName}`}
                  disabled={isBusy}
                  onClick={onEdit}
                >
                  <svg viewBox="0 0 16 16" aria-hidden="true">
                    <path d="M3 13l1-3.5 7-7 2.5 2.5-7 7zM9.5 4l2.5 2.5" />
                  </svg>
                </button>
              </Tooltip>
            )}
            <Tooltip content={<Trans>Update model</Trans>}>
              <button
                type="button"
                className="ts-bim4-model__action"
                aria-label={t`Update ${modelName}`}
                disabled={isBusy}
                onClick={() => fileInputRef.current?.click()}
              >
                <svg viewBox="0 0 16 16" aria-hidden="true">
                  <path d="M8 12V3M4.5 6.5L8 3l3.5 3.5M3 14h10" />
                </svg>
              </button>
            </Tooltip>
            <Tooltip
              content={
                isProjectPaid ? (
                  <Trans>Models cannot be deleted once the project is paid.</Trans>
                ) : (
                  <Trans>Delete</Trans>
                )
              }
            >
              {deleteButton}
            </Tooltip>
          </>
        )}
      </div>
      <input
        ref={fileInputRef}
        type="file"
        accept={modelFileAccept}
        hidden
        aria-label={t`New file for ${modelName}`}
        onChange={handleFiles}
      />
    </li>
  )
}
