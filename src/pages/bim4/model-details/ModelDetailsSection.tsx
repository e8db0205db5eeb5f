import { Trans, useLingui } from '@lingui/react/macro'
import { Fragment, useEffect, useState } from 'react'
import {
  deleteModelDetail,
  findModelDetail,
  type ModelDetail,
  type ModelDetailFields,
  saveModelDetail,
} from '../../../api/model-details'
import { showErrorToast } from '../../../components/feedback/error-text'
import { SavingFormDialog } from '../../../components/forms/SavingFormDialog'
import { Button, confirmDelete, DateField, TextArea, TextField, toast } from '../../../ui'
import { ModelDocuments } from './ModelDocuments'

/** The fields a model's details hold, empty for a model without any. */
function fieldsOf(detail: ModelDetail | null): Required<ModelDetailFields> {
  return {
    company: detail?.company ?? '',
    product: detail?.product ?? '',
    serial_number: detail?.serial_number ?? '',
    install_date: detail?.install_date ?? '',
    description: detail?.description ?? '',
  }
}

/**
 * The picked model's details in the pick info box (issue 21 item 5, `findModelInfoOne`):
 * manufacturer, product, serial number, install date and a description; a form adds or changes
 * them (`addModelDetail` / `updateModelDetail`) and they can be removed (`deleteModelDetail`,
 * documents included). Below them the attached documents, as links that download them.
 * Shown to those who may change the project (the calls are theirs only).
 */
export function ModelDetailsSection({
  modelId,
  modelName,
}: {
  modelId: string
  modelName: string
}) {
  const { t } = useLingui()
  /** undefined while loading */
  const [detail, setDetail] = useState<ModelDetail | null | undefined>(undefined)
  const [isEditing, setIsEditing] = useState(false)

  useEffect(() => {
    let isCurrent = true
    setDetail(undefined)
    setIsEditing(false)
    findModelDetail(modelId).then(
      (found) => {
        if (isCurrent) setDetail(found)
      },
      (error: unknown) => {
        if (!isCurrent) return
        setDetail(null)
        showErrorToast(error)
      },
    )
    return () => {
      isCurrent = false
    }
  }, [modelId])

  async function remove(shown: ModelDetail) {
    if (!(await confirmDelete({ itemName: t`Details of ${modelName}` }))) return
    try {
      await deleteModelDetail(shown.id)
      setDetail(null)
      toast.success(t`Deleted.`)
    } catch (error) {
      showErrorToast(error)
    }
  }

  if (detail === undefined) {
    return (
      <p className="ts-bim4-pick__details" role="status">
        <Trans>Loading the model’s details…</Trans>
      </p>
    )
  }
  const rows: Array<[string, string, string]> = detail
    ? [
        ['company', t`Manufacturer`, detail.company],
        ['product', t`Product`, detail.product],
        ['serial', t`Serial number`, detail.serial_number],
        ['installed', t`Install date`, detail.install_date],
        ['description', t`Description`, detail.description],
      ]
    : []
  return (
    <section className="ts-bim4-pick__details" aria-label={t`Model details`}>
      {detail ? (
        <dl className="ts-bim4-pick__list" data-testid="pick-details">
          {rows
            .filter(([, , value]) => value !== '')
            .map(([key, label, value]) => (
              <Fragment key={key}>
                <dt>{label}</dt>
                <dd data-testid={`pick-detail-${key}`}>{value}</dd>
              </Fragment>
            ))}
        </dl>
      ) : (
        <>
          <p className="ts-bim4-pick__hint">
            <Trans>This model has no details yet.</Trans>
          </p>
          <p className="ts-bim4-pick__hint">
            <Trans>Documents are attached to the details: add them first.</Trans>
          </p>
        </>
      )}
      <div className="ts-bim4-pick__actions">
        <Button variant="secondary" onClick={() => setIsEditing(true)}>
          {detail ? <Trans>Edit details</Trans> : <Trans>Add details</Trans>}
        </Button>
        {detail && (
          <Button variant="danger" onClick={() => void remove(detail)}>
            <Trans>Delete details</Trans>
          </Button>
        )}
      </div>
      {detail && <ModelDocuments detail={detail} onChanged={setDetail} />}
      {isEditing && (
        <ModelDetailsDialog
          modelId={modelId}
          modelName={modelName}
          detail={detail}
          onClose={() => setIsEditing(false)}
          onSaved={(saved) => {
            setDetail(saved)
            setIsEditing(false)
          }}
        />
      )}
    </section>
  )
}

/** The details form: every field optional; the server names a field it refuses. */
function ModelDetailsDialog({
  modelId,
  modelName,
  detail,
  onClose,
  onSaved,
}: {
  modelId: string
  modelName: string
  detail: ModelDetail | null
  onClose: () => void
  onSaved: (saved: ModelDetail) => void
}) {
  const { t } = useLingui()
  const [fields, setFields] = useState(() => fieldsOf(detail))
  const change = (key: keyof ModelDetailFields) => (value: string) =>
    setFields((current) => ({ ...current, [key]: value }))

  return (
    <SavingFormDialog
      title={<Trans>Details of {modelName}</Trans>}
      submitLabel={<Trans>Save</Trans>}
      successMessage={t`Saved.`}
      save={() => saveModelDetail(modelId, detail?.id ?? null, fields)}
      onSaved={onSaved}
      onClose={onClose}
    >
      <TextField
        label={t`Manufacturer`}
        value={fields.company}
        maxLength={100}
        onChange={(event) => change('company')(event.target.value)}
      />
      <TextField
        label={t`Product`}
        value={fields.product}
        maxLength={100}
        onChange={(event) => change('product')(event.target.value)}
      />
      <TextField
        label={t`Serial number`}
        value={fields.serial_number}
        maxLength={100}
        onChange={(event) => change('serial_number')(event.target.value)}
      />
      <DateField
        label={t`Install date`}
        value={fields.install_date}
        onValueChange={change('install_date')}
      />
      <TextArea
        label={t`Description`}
        value={fields.description}
        maxLength={500}
        onValueChange={change('description')}
      />
    </SavingFormDialog>
  )
}
