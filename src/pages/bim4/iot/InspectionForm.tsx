import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useId, useState } from 'react'
import { investigationLimits } from '../../../../contract/investigations'
import type {
  InvestigationFields,
  Investigation,
  InvestigationState,
} from '../../../api/investigations'
import * as investigationsApi from '../../../api/investigations'
import { showErrorToast } from '../../../components/feedback/error-text'
import {
  Button,
  imageInputAccept,
  Select,
  TextArea,
  TextField,
  toast,
  validateImageFile,
} from '../../../ui'

/** The inspection states as people read them. */
export const inspectionStateNames = {
  open: msg`Open`,
  in_progress: msg`In progress`,
  resolved: msg`Resolved`,
} as const

/** A photo of the form: already uploaded (its uuid and thumbnail). */
interface FormPhoto {
  id: string
  thumbnailUrl: string
}

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input shows it. */
export function localInputTime(iso: string): string {
  const date = new Date(iso)
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000)
  return shifted.toISOString().slice(0, 16)
}

/** Props of {@link InspectionForm}. */
export interface InspectionFormProps {
  projectId: string
  /** What a new record is against. */
  subject: { alarmId: string } | { poiId: string }
  /** The record to change; a new one without. */
  record?: Investigation
  /** Who inspects by default (the signed-in user). */
  defaultInspector: string
  onSaved: (record: Investigation) => void
  onCancel: () => void
}

/**
 * Adds or changes an inspection record of an alarm or a POI: who inspected and when, what they found,
 * its state, and photos (JPEG/PNG under 2 MB each, uploaded at once with the shared image upload
 * for this project; at most nine).
 */
export function InspectionForm({
  projectId,
  subject,
  record,
  defaultInspector,
  onSaved,
  onCancel,
}: InspectionFormProps) {
  const { t, i18n } = useLingui()
  const photoInputId = useId()
  const [inspector, setInspector] = useState(record?.inspector ?? defaultInspector)
  const [inspectedAt, setInspectedAt] = useState(
    localInputTime(record?.inspected_at ?? new Date().toISOString()),
  )
  const [findings, setFindings] = useState(record?.findings ?? '')
  const [state, setState] = useState<InvestigationState>(record?.state ?? 'open')
  const [photos, setPhotos] = useState<FormPhoto[]>(
    record?.photos.map((photo) => ({ id: photo.id, thumbnailUrl: photo.thumbnail_url })) ?? [],
  )
  const [uploadingCount, setUploadingCount] = useState(0)
  const [isSaving, setSaving] = useState(false)
  const [inspectorError, setInspectorError] = useState<string | null>(null)

  async function addPhotos(files: readonly File[]) {
    const room = investigationLimits.maxPhotos - photos.length - uploadingCount
    if (files.length > room) {
      toast.warning(t`An inspection keeps at most ${investigationLimits.maxPhotos} photos.`)
    }
    for (const file of files.slice(0, Math.max(0, room))) {
      const check = validateImageFile(file)
      if (!check.isValid) {
        toast.error(
          check.reason === 'size'
            ? t`Image size is over 2MB!`
            : t`Only JPEG and PNG images can be used.`,
        )
        continue
      }
      setUploadingCount((count) => count + 1)
      try {
        const uploaded = await investigationsApi.uploadInspectionPhoto(file, projectId)
        setPhotos((current) => [
          ...current,
          { id: uploaded.uuid, thumbnailUrl: uploaded.thumbnailPath },
        ])
      } catch (error) {
        showErrorToast(error)
      } finally {
        setUploadingCount((count) => count - 1)
      }
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (isSaving || uploadingCount > 0) return
    if (inspector.trim() === '') {
      setInspectorError(t`Say who inspected.`)
      return
    }
    setInspectorError(null)
    const time = new Date(inspectedAt)
    const fields: InvestigationFields = {
      inspector: inspector.trim(),
      inspected_at: (Number.isNaN(time.getTime()) ? new Date() : time).toISOString(),
      findings,
      state,
      photos: photos.map((photo) => photo.id),
    }
    setSaving(true)
    try {
      const saved = record
        ? await investigationsApi.updateInvestigation(record.id, fields)
        : await investigationsApi.addInvestigation(
            'alarmId' in subject ? { alarm_id: subject.alarmId } : { poi_id: subject.poiId },
            fields,
          )
      toast.success(record ? t`Inspection saved.` : t`Inspection recorded.`)
      onSaved(saved)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="ts-inspection-form" onSubmit={submit} data-testid="inspection-form">
      <TextField
        label={<Trans>Inspector</Trans>}
        value={inspector}
        maxLength={investigationLimits.inspectorMaxLength}
        onChange={(event) => setInspector(event.target.value)}
        error={inspectorError}
        required
      />
      <TextField
        label={<Trans>Inspected at</Trans>}
        type="datetime-local"
        value={inspectedAt}
        max={localInputTime(new Date().toISOString())}
        onChange={(event) => setInspectedAt(event.target.value)}
        required
      />
      <Select<InvestigationState>
        label={<Trans>State</Trans>}
        options={(['open', 'in_progress', 'resolved'] as const).map((value) => ({
          value,
          label: i18n._(inspectionStateNames[value]),
        }))}
        value={state}
        onValueChange={setState}
      />
      <TextArea
        label={<Trans>Findings</Trans>}
        value={findings}
        onValueChange={setFindings}
        maxLength={investigationLimits.findingsMaxLength}
        rows={4}
      />
      <div className="ts-field">
        <span className="ts-field__label">
          <Trans>Photos</Trans>
        </span>
        <ul className="ts-inspection-photos" aria-label={t`Photos`}>
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <img src={photo.thumbnailUrl} alt={t`Attachment ${index + 1}`} />
              <Button
                variant="ghost"
                onClick={() => setPhotos((current) => current.filter((kept) => kept !== photo))}
              >
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
        {uploadingCount > 0 && (
          <p className="ts-bim4-muted" role="status">
            <Trans>Uploading photos…</Trans>
          </p>
        )}
        <label htmlFor={photoInputId} className="ts-inspection-form__add-photo">
          <Trans>Add photos</Trans>
        </label>
        <input
          id={photoInputId}
          type="file"
          accept={imageInputAccept}
          multiple
          className="ts-visually-hidden"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])]
            event.target.value = ''
            void addPhotos(files)
          }}
        />
      </div>
      <div className="ts-iot-actions">
        <Button type="submit" isBusy={isSaving} disabled={uploadingCount > 0}>
          {record ? <Trans>Save inspection</Trans> : <Trans>Record inspection</Trans>}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  )
}
