import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { type TemplateEventKind, templateEventKinds } from '../../api/templates'
import { ErrorState, FormWrapper, Spinner, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import type { TemplateServices } from './template-services'

/**
 * The events tab (SPEC §2 template popup "events (link, alarm, offline, fault)"): which kinds
 * of event the POIs made from this template raise.
 */
export function TemplateEventsTab({
  templateId,
  services,
}: {
  templateId: number
  services: TemplateServices
}) {
  const { t } = useLingui()
  const [kinds, setKinds] = useState<Set<TemplateEventKind> | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)

  const load = useCallback(async () => {
    setLoadError(null)
    try {
      setKinds(new Set(await services.getEventKinds(templateId)))
    } catch (error) {
      setLoadError(error)
    }
  }, [services, templateId])

  useEffect(() => {
    void load()
  }, [load])

  async function save() {
    if (!kinds) return
    try {
      await services.setEventKinds(
        templateId,
        templateEventKinds.filter((kind) => kinds.has(kind)),
      )
      toast.success(t`Modified successfully.`)
    } catch (error) {
      showErrorToast(error)
    }
  }

  if (loadError !== null) return <ErrorState message={errorText(loadError)} onRetry={load} />
  if (!kinds) return <Spinner />
  const names: Record<TemplateEventKind, string> = {
    link: t`Link`,
    alarm: t`Alarm`,
    offline: t`Offline`,
    fault: t`Fault`,
  }
  return (
    <FormWrapper onSubmit={save} submitLabel={<Trans>Save</Trans>}>
      <fieldset className="ts-template-events" data-testid="template-events">
        <legend className="ts-field__label">
          <Trans>Events the POIs of this template raise</Trans>
        </legend>
        {templateEventKinds.map((kind) => (
          <label key={kind} className="ts-checkbox">
            <input
              type="checkbox"
              checked={kinds.has(kind)}
              onChange={(event) => {
                const next = new Set(kinds)
                if (event.target.checked) next.add(kind)
                else next.delete(kind)
                setKinds(next)
              }}
            />
            {names[kind]}
          </label>
        ))}
      </fieldset>
    </FormWrapper>
  )
}
