import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { type TemplateProperty, templateLimits } from '../../api/templates'
import { Button, confirmDelete, EmptyState, ErrorState, Spinner, TextField, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import { type AttributeValues, attributeProblem } from './template-form'
import type { TemplateServices } from './template-services'

const emptyAttribute: AttributeValues = { property_column: '', column_des: '', column_example: '' }

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
  const [attributes, setAttributes] = useState<TemplateProperty[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [values, setValues] = useState<AttributeValues>(emptyAttribute)
  const [isAdding, setIsAdding] = useState(false)
  const [syncing, setSyncing] = useState<'all' | 'project' | null>(null)

  const load = useCallback(async () => {
    if (templateId === null) return
    setLoadError(null)
    try {
      setAttributes(await services.listAttributes(templateId))
    } catch (error) {
      setLoadError(error)
    }
  }, [services, templateId])

  useEffect(() => {
    void load()
  }, [load])

  async function add() {
    const problem = attributeProblem(values, templateId)
    if (problem === 'noTemplate') {
      toast.warning(t`Please add the basic attributes first.`)
      return
    }
    if (problem === 'incomplete') {
      toast.warning(t`Please fill in everything completely.`)
      return
    }
    if (problem === 'notIdentifier') {
      toast.warning(t`The English name may hold only letters, digits and underscores.`)
      return
    }
    if (templateId === null) return
    setIsAdding(true)
    try {
      await services.addAttribute({
        poicategoryid: templateId,
        property_column: values.property_column.trim(),
        column_des: values.column_des.trim(),
        column_example: values.column_example.trim(),
      })
      toast.success(t`Static attribute added.`)
      setValues(emptyAttribute)
      await load()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsAdding(false)
    }
  }

  async function remove(attribute: TemplateProperty) {
    if (!(await confirmDelete({ itemName: attribute.column_des }))) return
    try {
      await services.deleteAttribute(attribute.id)
      toast.success(t`Deleted.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

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

  const set = (key: keyof AttributeValues, value: string) =>
    setValues((current) => ({ ...current, [key]: value }))
  return (
    <div className="ts-template-attributes" data-testid="template-attributes">
      <form
        className="ts-template-attributes__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          if (!isAdding) void add()
        }}
      >
        <TextField
          label={t`Name (English)`}
          value={values.property_column}
          maxLength={templateLimits.propertyColumnMaxLength}
          placeholder="e.g. brand"
          hint={t`Letters, digits and underscores.`}
          onChange={(event) => set('property_column', event.target.value)}
          data-testid="attribute-column"
        />
        <TextField
          label={t`Display name`}
          value={values.column_des}
          maxLength={templateLimits.columnTextMaxLength}
          onChange={(event) => set('column_des', event.target.value)}
          data-testid="attribute-des"
        />
        <TextField
          label={t`Display value`}
          value={values.column_example}
          maxLength={templateLimits.columnTextMaxLength}
          onChange={(event) => set('column_example', event.target.value)}
          data-testid="attribute-example"
        />
        <Button type="submit" variant="primary" isBusy={isAdding}>
          <Trans>Add attribute</Trans>
        </Button>
      </form>
      {loadError !== null ? (
        <ErrorState message={errorText(loadError)} onRetry={load} />
      ) : templateId !== null && !attributes ? (
        <Spinner />
      ) : !attributes || attributes.length === 0 ? (
        <EmptyState title={<Trans>No static attributes yet</Trans>} />
      ) : (
        <table className="ts-table" data-testid="attribute-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Name (English)</Trans>
              </th>
              <th scope="col">
                <Trans>Display name</Trans>
              </th>
              <th scope="col">
                <Trans>Display value</Trans>
              </th>
              <th scope="col">
                <span className="ts-visually-hidden">
                  <Trans>Actions</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {attributes.map((attribute) => {
              const attributeName = attribute.column_des
              return (
                <tr key={attribute.id}>
                  <th scope="row">{attribute.property_column}</th>
                  <td>{attribute.column_des}</td>
                  <td>{attribute.column_example}</td>
                  <td className="ts-table__actions">
                    <Button
                      variant="ghost"
                      onClick={() => void remove(attribute)}
                      aria-label={t`Delete ${attributeName}`}
                    >
                      <Trans>Delete</Trans>
                    </Button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
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
