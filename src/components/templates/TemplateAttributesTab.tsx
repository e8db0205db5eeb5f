import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useState } from 'react'
import { Button, EmptyState, ErrorState, Spinner, toast } from '../../ui'
import { errorText } from '../feedback/error-text'
import { AttributeForm, AttributeTable } from './AttributeParts'
import type { TemplateServices } from './template-services'
import { useTemplatePart } from './use-template-part'

/**
 * The static attributes of a template (SPEC §3, §5): a list with delete, a form to add one
 * (English name as an identifier, display name, display value), and the two syncs that push
 * the attributes onto the POIs made from the template.
 */
export function TemplateAttributesTab({
  templateId,
  projectId,
  services,
}: {
  templateId: string | null
  projectId: string | null
  services: TemplateServices
}) {
  const { t } = useLingui()
  const fetch = useCallback(
    () => (templateId === null ? Promise.resolve([]) : services.listAttributes(templateId)),
    [services, templateId],
  )
  const part = useTemplatePart(templateId === null ? null : fetch)
  const attributes = part.data
  const [syncing, setSyncing] = useState<'all' | 'project' | null>(null)

  async function sync(scope: 'all' | 'project') {
    if (templateId === null) return
    setSyncing(scope)
    try {
      const syncCall = services.syncAttributes(
        templateId,
        scope === 'all' || !projectId ? 'all' : { projectId },
      )
      const { poi_count: count } = await syncCall
      toast.success(t`Synced ${count} POIs.`)
    } catch (error) {
      const reason = errorText(error)
      toast.error(t`Sync failed. ${reason}`)
    } finally {
      setSyncing(null)
    }
  }

  return (
    <div className="ts-template-attributes" data-testid="template-attributes">
      <AttributeForm
        hasTemplate={templateId !== null}
        isBusy={part.isAdding}
        onAdd={(values) =>
          templateId !== null &&
          part.add(
            () => services.addAttribute({ poicategoryid: templateId, ...values }),
            t`Static attribute added.`,
          )
        }
      />
      {part.loadError !== null ? (
        <ErrorState message={errorText(part.loadError)} onRetry={part.load} />
      ) : templateId !== null && !attributes ? (
        <Spinner />
      ) : !attributes || attributes.length === 0 ? (
        <EmptyState title={<Trans>No static attributes yet</Trans>} />
      ) : (
        <AttributeTable
          rows={attributes.map((attribute) => ({ ...attribute, key: attribute.id }))}
          onDelete={(row) =>
            void part.remove(row.column_des, () => services.deleteAttribute(row.key))
          }
        />
      )}
      <div className="ts-template-attributes__sync">
        <Button
          onClick={() => void sync('all')}
          isBusy={syncing === 'all'}
          disabled={templateId === null || syncing !== null}
        >
          <Trans>Sync to all POIs of this template</Trans>
        </Button>
        {projectId && (
          <Button
            onClick={() => void sync('project')}
            isBusy={syncing === 'project'}
            disabled={templateId === null || syncing !== null}
          >
            <Trans>Sync to this project's POIs</Trans>
          </Button>
        )}
      </div>
    </div>
  )
}
