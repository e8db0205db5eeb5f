import { Trans, useLingui } from '@lingui/react/macro'
import { type DragEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { Button } from '../Button'
import { type ImageRejection, imageInputAccept, validateImageFile } from './image-validation'
import './ImagePicker.css'

/** Props of {@link ImagePicker}. */
export interface ImagePickerProps {
  label: ReactNode
  /** Receives only files that passed the checks; refused files never reach it. */
  onPick: (file: File) => void
  /** Told why a file was refused, for pages that also want to react. */
  onReject?: (reason: ImageRejection, file: File) => void
  /** The image currently saved, shown until a new one is picked. */
  currentImageUrl?: string
  /** Hint under the picker, e.g. the recommended 2048 × 2048 px cover size. */
  hint?: ReactNode
  disabled?: boolean
}

/**
 * Chooses one image by button or drop, refuses anything but JPEG/PNG under 2 MB with a message
 * (SPEC §5), and previews the accepted file.
 */
export function ImagePicker({
  label,
  onPick,
  onReject,
  currentImageUrl,
  hint,
  disabled,
}: ImagePickerProps) {
  const { t } = useLingui()
  const inputId = useId()
  const input = useRef<HTMLInputElement>(null)
  const [rejection, setRejection] = useState<ImageRejection | null>(null)
  const [previewUrl, setPreviewUrl] = useState<string | null>(null)
  const [isDragOver, setIsDragOver] = useState(false)

  // Object URLs pin the file in memory until revoked.
  useEffect(() => {
    if (!previewUrl) return
    return () => URL.revokeObjectURL(previewUrl)
  }, [previewUrl])

  function take(file: File | undefined) {
    if (!file) return
    const validation = validateImageFile(file)
    if (!validation.isValid) {
      setRejection(validation.reason)
      onReject?.(validation.reason, file)
      return
    }
    setRejection(null)
    setPreviewUrl(URL.createObjectURL(file))
    onPick(file)
  }

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault()
    setIsDragOver(false)
    if (!disabled) take(event.dataTransfer.files[0])
  }

  const shownUrl = previewUrl ?? currentImageUrl
  const messageId = `${inputId}-message`
  return (
    <div className="ts-field ts-image-picker">
      <span className="ts-field__label">{label}</span>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the button below is the keyboard path */}
      <div
        className="ts-image-picker__zone"
        data-drag-over={isDragOver || undefined}
        onDragOver={(event) => {
          event.preventDefault()
          setIsDragOver(true)
        }}
        onDragLeave={() => setIsDragOver(false)}
        onDrop={handleDrop}
      >
        {shownUrl ? (
          <img className="ts-image-picker__preview" src={shownUrl} alt={t`Preview`} />
        ) : (
          <span className="ts-image-picker__placeholder">
            <Trans>Drop a JPG or PNG image here</Trans>
          </span>
        )}
        <input
          ref={input}
          id={inputId}
          type="file"
          className="ts-visually-hidden"
          accept={imageInputAccept}
          disabled={disabled}
          aria-describedby={rejection ? messageId : undefined}
          onChange={(event) => {
            take(event.target.files?.[0])
            // Cleared so choosing the same file again still fires a change.
            event.target.value = ''
          }}
        />
        <Button disabled={disabled} onClick={() => input.current?.click()}>
          {shownUrl ? <Trans>Change image</Trans> : <Trans>Choose image</Trans>}
        </Button>
      </div>
      {rejection ? (
        <p id={messageId} className="ts-field__error" role="alert">
          {rejection === 'size' ? (
            <Trans>Image size is over 2MB!</Trans>
          ) : (
            <Trans>Only JPG and PNG images can be uploaded.</Trans>
          )}
        </p>
      ) : (
        hint && <p className="ts-field__hint">{hint}</p>
      )}
    </div>
  )
}
