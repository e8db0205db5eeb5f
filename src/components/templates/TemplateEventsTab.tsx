import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { type TemplateEvent, type TemplateEventKind, templateEventKinds } from '../../api/templates'
import { Button, ErrorState, FormWrapper, ImagePicker, Spinner, TextField, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import type { TemplateServices } from './template-services'

/**
 * The events tab (SPEC §2 template popup "events (link, alarm, offline, fault)"): which kinds
 * of event the POIs made from this template raise, each with the device event code that
 * triggers it and the image a POI shows while the event is active (SPEC §3 `event_image`,
 * uploaded like an icon; none means the default look).
 */
export function TemplateEventsTab({
  templateId,
  services,
}: {
  templateId: string
  services: TemplateServices
}) {
  const { t } = useLingui()
  const [events, setEvents] = useState<TemplateEvent[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [uploadingKind, setUploadingKind] = useState<TemplateEventKind | null>(null)

  const load = useCallback(async () => {
    setLoadError(null)
    try {
      const answer = await services.getEvents(templateId)
      // the server answers all four kinds; a kind it left out reads as switched off
      setEvents(
        templateEventKinds.map(
          (kind) =>
            answer.find((event) => event.kind === kind) ?? {
              kind,
              is_enabled: false,
              event_code: '',
              event_image: '',
            },
        ),
      )
    } catch (error) {
      setLoadError(error)
    }
  }, [services, templateId])

  useEffect(() => {
    void load()
  }, [load])

  async function takeImage(kind: TemplateEventKind, file: File) {
    setUploadingKind(kind)
    try {
      const image = await services.uploadIcon(file)
      change(kind, { event_image: `${image.rootPath}${image.jpgName}` })
    } catch (error) {
      showErrorToast(error)
    } finally {
      setUploadingKind(null)
    }
  }

  async function save() {
    if (!events) return
    try {
      setEvents(await services.setEvents(templateId, events))
      toast.success(t`Modified successfully.`)
    } catch (error) {
      showErrorToast(error)
    }
  }

  function change(kind: TemplateEventKind, patch: Partial<TemplateEvent>) {
    setEvents((current) =>
      (current ?? []).map((event) => (event.kind === kind ? { ...event, ...patch } : event)),
    )
  }

  if (loadError !== null) return <ErrorState message={errorText(loadError)} onRetry={load} />
  if (!events) return <Spinner />
  const names: Record<TemplateEventKind, string> = {
    link: t`Link`,
    alarm: t`Alarm`,
    offline: t`Offline`,
    fault: t`Fault`,
  }
  return (
    <FormWrapper onSubmit={save} submitLabel={<Trans>Save</Trans>} isBusy={uploadingKind !== null}>
      <fieldset className="ts-template-events" data-testid="template-events">
        <legend className="ts-field__label">
          <Trans>Events the POIs of this template raise</Trans>
        </legend>
        {events.map((event) => {
          const kindName = names[event.kind]
          return (
            <div key={event.kind} className="ts-template-events__row">
              <label className="ts-checkbox">
                <input
                  type="checkbox"
                  checked={event.is_enabled}
                  onChange={(change_) => change(event.kind, { is_enabled: change_.target.checked })}
                />
                {kindName}
              </label>
              <TextField
                label={t`Event code of ${kindName}`}
                value={event.event_code}
                maxLength={64}
                disabled={!event.is_enabled}
                onChange={(change_) => change(event.kind, { event_code: change_.target.value })}
              />
              <div className="ts-template-events__image" data-testid={`event-image-${event.kind}`}>
                <ImagePicker
                  // a cleared image starts the picker over
                  key={event.event_image === '' ? 'default' : 'chosen'}
                  label={t`Image of ${kindName}`}
                  currentImageUrl={event.event_image || undefined}
                  disabled={!event.is_enabled || uploadingKind !== null}
                  onPick={(file) => void takeImage(event.kind, file)}
                  onReject={(reason) => {
                    if (reason === 'size') toast.warning(t`Image size is over 2MB!`)
                    else toast.warning(t`The icon must be a JPG or PNG image.`)
                  }}
                  hint={
                    uploadingKind === event.kind
                      ? t`Uploading the image…`
                      : event.event_image
                        ? t`Shown while the event is active.`
                        : t`None: the POI keeps its icon.`
                  }
                />
                {event.event_image !== '' && (
                  <Button
                    variant="ghost"
                    onClick={() => change(event.kind, { event_image: '' })}
                    aria-label={t`Remove the image of ${kindName}`}
                  >
                    <Trans>Remove image</Trans>
                  </Button>
                )}
              </div>
            </div>
          )
        })}
      </fieldset>
    </FormWrapper>
  )
}
