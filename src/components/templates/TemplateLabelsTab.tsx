import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { type TemplateLabel, type TemplateLabels, templateLimits } from '../../api/templates'
import { Button, confirmDelete, EmptyState, ErrorState, Spinner, TextField, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import type { TemplateServices } from './template-services'

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
  const [labels, setLabels] = useState<TemplateLabels | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [labelKey, setLabelKey] = useState('')
  const [isAdding, setIsAdding] = useState(false)

  const load = useCallback(async () => {
    setLoadError(null)
    try {
      setLabels(await services.getLabels(templateId))
    } catch (error) {
      setLoadError(error)
    }
  }, [services, templateId])

  useEffect(() => {
    void load()
  }, [load])

  async function add(key: string) {
    const trimmed = key.trim()
    if (!trimmed) {
      toast.warning(t`Please enter the label.`)
      return
    }
    setIsAdding(true)
    try {
      await services.addLabel(templateId, trimmed)
      toast.success(t`Added successfully.`)
      setLabelKey('')
      await load()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsAdding(false)
    }
  }

  async function remove(label: TemplateLabel) {
    if (!(await confirmDelete({ itemName: label.labelKey }))) return
    try {
      await services.deleteLabel(label.id)
      toast.success(t`Deleted.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  if (loadError !== null) return <ErrorState message={errorText(loadError)} onRetry={load} />
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
          if (!isAdding) void add(labelKey)
        }}
      >
        <TextField
          label={t`New label`}
          value={labelKey}
          maxLength={templateLimits.labelKeyMaxLength}
          onChange={(event) => setLabelKey(event.target.value)}
          data-testid="label-key"
        />
        <Button type="submit" variant="primary" isBusy={isAdding}>
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
