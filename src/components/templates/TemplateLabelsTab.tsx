import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useState } from 'react'
import { type TemplateLabel, templateLimits } from '../../api/templates'
import { Button, EmptyState, ErrorState, Spinner, TextField, toast } from '../../ui'
import { errorText } from '../feedback/error-text'
import type { TemplateServices } from './template-services'
import { useTemplatePart } from './use-template-part'

/**
 * The model labels of a template (SPEC §3 "Template labels"): the current labels with add and
 * remove, and the history of labels used before, one click from being added again.
 */
export function TemplateLabelsTab({
  templateId,
  services,
}: {
  templateId: string
  services: TemplateServices
}) {
  const { t } = useLingui()
  const fetch = useCallback(() => services.getLabels(templateId), [services, templateId])
  const part = useTemplatePart(fetch)
  const labels = part.data
  const [labelKey, setLabelKey] = useState('')

  async function add(key: string) {
    const trimmed = key.trim()
    if (!trimmed) {
      toast.warning(t`Please enter the label.`)
      return
    }
    if (await part.add(() => services.addLabel(templateId, trimmed))) setLabelKey('')
  }

  const remove = (label: TemplateLabel) =>
    part.remove(label.labelKey, () => services.deleteLabel(label.id))

  if (part.loadError !== null) {
    return <ErrorState message={errorText(part.loadError)} onRetry={part.load} />
  }
  if (!labels) return <Spinner />
  const current = new Set(labels.poicategoryLabels.map((label) => label.labelKey))
  const history = labels.poicategoryHistoryLabels.filter((label) => !current.has(label.labelKey))
  return (
    <div className="ts-template-labels" data-testid="template-labels">
      <form
        className="ts-template-labels__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          if (!part.isAdding) void add(labelKey)
        }}
      >
        <TextField
          label={t`New label`}
          value={labelKey}
          maxLength={templateLimits.labelKeyMaxLength}
          onChange={(event) => setLabelKey(event.target.value)}
          data-testid="label-key"
        />
        <Button type="submit" variant="primary" isBusy={part.isAdding}>
          <Trans>Add label</Trans>
        </Button>
      </form>
      <h3 className="ts-template-labels__heading">
        <Trans>Current labels</Trans>
      </h3>
      {labels.poicategoryLabels.length === 0 ? (
        <EmptyState title={<Trans>No labels yet</Trans>} />
      ) : (
        <ul className="ts-template-labels__list" data-testid="label-current">
          {labels.poicategoryLabels.map((label) => {
            const labelName = label.labelKey
            return (
              <li key={label.id} className="ts-template-labels__chip">
                <span>{label.labelKey}</span>
                <button
                  type="button"
                  className="ts-template-labels__remove"
                  onClick={() => void remove(label)}
                  aria-label={t`Remove label ${labelName}`}
                >
                  ×
                </button>
              </li>
            )
          })}
        </ul>
      )}
      <h3 className="ts-template-labels__heading">
        <Trans>History</Trans>
      </h3>
      {history.length === 0 ? (
        <p className="ts-field__hint">
          <Trans>No earlier labels.</Trans>
        </p>
      ) : (
        <ul className="ts-template-labels__list" data-testid="label-history">
          {history.map((label) => (
            <li key={label.id}>
              <button
                type="button"
                className="ts-template-labels__chip ts-template-labels__chip--history"
                onClick={() => void add(label.labelKey)}
                title={t`Add again`}
              >
                {label.labelKey}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
