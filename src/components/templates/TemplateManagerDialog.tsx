import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import type { CategoryNode, Template } from '../../api/templates'
import { navigateHash } from '../../app/hash-location'
import { Button, Dialog, ErrorState, Spinner, Tabs } from '../../ui'
import { errorText } from '../feedback/error-text'
import { TemplateAttributesTab } from './TemplateAttributesTab'
import { TemplateBasicTab } from './TemplateBasicTab'
import { TemplateEventsTab } from './TemplateEventsTab'
import { TemplateLabelsTab } from './TemplateLabelsTab'
import { isTabEnabled, type TemplateKind, type TemplateTab, tabAfterSave } from './template-form'
import { serverTemplateServices, type TemplateServices } from './template-services'
import './templates.css'

/** Props of {@link TemplateManagerDialog}. */
export interface TemplateManagerDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** The template to edit in place, or null for a new one. */
  templateId: string | null
  /** The kind of a new template. */
  kind?: TemplateKind
  /** Told after each successful save, e.g. to reload a list. */
  onSaved?: (id: string) => void
  /** The open project, so attributes can be synced onto its POIs only. */
  projectId?: string | null
  services?: TemplateServices
}

/**
 * The template manager popup (SPEC §2, §4): tabs basic, static attributes, model labels and
 * events. A new template stays on basic until its first save; the id that save returns unlocks
 * the other tabs and the popup moves on to the labels. An existing template is edited in place.
 */
export function TemplateManagerDialog(props: TemplateManagerDialogProps) {
  const { isOpen, onOpenChange, templateId } = props
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={templateId === null ? <Trans>New template</Trans> : <Trans>Edit template</Trans>}
      widthPx={720}
    >
      {isOpen && <TemplateManager key={templateId ?? `new-${props.kind ?? 'simple'}`} {...props} />}
    </Dialog>
  )
}

function TemplateManager({
  templateId,
  kind = 'simple',
  onSaved,
  projectId = null,
  services = serverTemplateServices,
}: TemplateManagerDialogProps) {
  const { t } = useLingui()
  const [id, setId] = useState<string | null>(templateId)
  const [tab, setTab] = useState<TemplateTab>('basic')
  const [template, setTemplate] = useState<Template | null>(null)
  const [tree, setTree] = useState<CategoryNode[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(true)

  const load = useCallback(async () => {
    setIsLoading(true)
    setLoadError(null)
    try {
      const [categories, saved] = await Promise.all([
        services.findCategoryTree(),
        templateId === null ? Promise.resolve(null) : services.getTemplate(templateId),
      ])
      setTree(categories)
      setTemplate(saved)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [services, templateId])

  useEffect(() => {
    void load()
  }, [load])

  if (loadError !== null) {
    return (
      <ErrorState
        // SPEC §8: the category load's failure says the network is abnormal
        title={<Trans>Network abnormal, please retry later.</Trans>}
        message={errorText(loadError)}
        onRetry={load}
        isRetrying={isLoading}
      />
    )
  }
  if (!tree || isLoading) return <Spinner label={t`Loading the template`} />

  const handleSaved = (savedId: string) => {
    const wasNew = id === null
    setId(savedId)
    setTab((current) => tabAfterSave(current, wasNew))
    onSaved?.(savedId)
  }

  const locked = (value: TemplateTab) => !isTabEnabled(value, id)
  return (
    <div className="ts-template-manager" data-testid="template-manager">
      {id === null && (
        <p className="ts-template-manager__hint" role="note">
          <Trans>Save the basic attributes first; the other tabs open after the first save.</Trans>
        </p>
      )}
      <Tabs<TemplateTab>
        label={t`Template tabs`}
        value={tab}
        // SPEC §4: switching is blocked while no id exists (locked tabs are disabled too)
        onValueChange={(next) => {
          if (isTabEnabled(next, id)) setTab(next)
        }}
        items={[
          {
            value: 'basic',
            label: <Trans>Basic</Trans>,
            content: (
              <TemplateBasicTab
                template={template}
                kind={kind}
                templateId={id}
                tree={tree}
                services={services}
                onSaved={handleSaved}
              />
            ),
          },
          {
            value: 'static',
            label: <Trans>Static attributes</Trans>,
            isDisabled: locked('static'),
            content: (
              <TemplateAttributesTab templateId={id} projectId={projectId} services={services} />
            ),
          },
          {
            value: 'labels',
            label: <Trans>Model labels</Trans>,
            isDisabled: locked('labels'),
            content: id !== null && <TemplateLabelsTab templateId={id} services={services} />,
          },
          {
            value: 'events',
            label: <Trans>Events</Trans>,
            isDisabled: locked('events'),
            content: id !== null && <TemplateEventsTab templateId={id} services={services} />,
          },
        ]}
      />
      <div className="ts-template-manager__footer">
        {/* SPEC §2: the popup's project-manager button goes to / */}
        <Button variant="ghost" onClick={() => navigateHash('/')}>
          <Trans>Project manager</Trans>
        </Button>
      </div>
    </div>
  )
}
