import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import type { Vector3Tuple } from '../../../engine/api'
import type { PoiCustomInput } from '../../api/pois'
import { PagedSelect } from '../../components/templates/PagedSelect'
import { errorText } from '../../components/feedback/error-text'
import {
  type PoiChanges,
  type PoiEntry,
  type PoiFrame,
  type PoiStore,
  type PoiTemplateInfo,
  poiStore,
} from '../../state/pois'
import { ErrorState, FormDialog, Spinner, TextField } from '../../ui'
import { type PoiScreenServices, serverPoiScreenServices, templateInfoOf } from './poi-services'
import '../../components/templates/templates.css'
import './pois.css'
import { templateNameText } from '../../i18n/library-names'

/** What the POI form edits: a new POI where the user clicked, or an existing one. */
export type PoiFormTarget =
  | {
      mode: 'add'
      /** Where it goes (the editor's pick). */
      position: Vector3Tuple
      /** Building: the floor of the pick; a building POI without one is refused. */
      floorId?: string | null
      heading?: number
      /** A template chosen before the click (the editors' "place" tool), if any. */
      template?: PoiTemplateInfo
    }
  | { mode: 'modify'; poiId: string }

/** Props of {@link PoiForm}. */
export interface PoiFormProps {
  /** Null: closed. */
  target: PoiFormTarget | null
  onClose: () => void
  /** The saved POI (server id). */
  onSaved?: (entry: PoiEntry) => void
  store?: PoiStore
  services?: PoiScreenServices
}

/** A template as the choice lists it. */
interface TemplateChoice {
  id: string
  name: string
  info: PoiTemplateInfo
}

/** One custom property row: the template's attribute and this POI's value. */
interface CustomRow {
  property_column: string
  column_des: string
  value: string
  /** The value it had when the form opened (modify sends only changed ones). */
  initial: string
}

/** Field problems of the POI form (SPEC §5, §8). */
export interface PoiFormErrors {
  template?: 'missing'
  name?: 'missing'
  floor?: 'missing'
  devicecode?: { takenBy: string }
}

/**
 * The rules of the POI form: a template ('Select the POI category'), a name, a floor for a
 * building POI ('Select the floor which the POI is placed.') and a device code no other POI of
 * the project has (the server checks it too; this says so before sending).
 */
export function validatePoiForm(input: {
  template: PoiTemplateInfo | null
  name: string
  devicecode: string
  frame: PoiFrame | null
  isAdd: boolean
  floorId: string | null | undefined
  poiId: string | null
  entries: readonly PoiEntry[]
}): PoiFormErrors {
  const errors: PoiFormErrors = {}
  if (!input.template) errors.template = 'missing'
  if (input.name.trim() === '') errors.name = 'missing'
  if (input.isAdd && input.frame === 'building' && !input.floorId) errors.floor = 'missing'
  const code = input.devicecode.trim()
  if (code !== '') {
    const other = input.entries.find(
      (entry) => entry.devicecode === code && entry.id !== input.poiId,
    )
    if (other) errors.devicecode = { takenBy: other.name }
  }
  return errors
}

/**
 * The POI form (SPEC §2 "POI form with an add or modify title"): the template ('Select the POI
 * category' when none is chosen), name, device code and the custom properties (the template's
 * static attributes; a new POI starts with their example values). Saving goes through the POI
 * store: the POI appears (or changes) in the scene at once and the form closes when the server
 * agreed; a refusal keeps the form open with the server's message.
 */
export function PoiForm({
  target,
  onClose,
  onSaved,
  store = poiStore,
  services = serverPoiScreenServices,
}: PoiFormProps) {
  const { t } = useLingui()
  const isAdd = target?.mode === 'add'
  return (
    <PoiFormDialog
      // A new target starts a fresh form.
      key={
        target
          ? target.mode === 'add'
            ? `add:${target.position.join(',')}`
            : `modify:${target.poiId}`
          : 'closed'
      }
      target={target}
      title={isAdd ? t`Add POI` : t`Modify POI`}
      onClose={onClose}
      onSaved={onSaved}
      store={store}
      services={services}
    />
  )
}

function PoiFormDialog({
  target,
  title,
  onClose,
  onSaved,
  store,
  services,
}: Required<Omit<PoiFormProps, 'onSaved'>> & Pick<PoiFormProps, 'onSaved'> & { title: string }) {
  const { t } = useLingui()
  const isAdd = target?.mode === 'add'
  const poiId = target?.mode === 'modify' ? store.resolveId(target.poiId) : null
  const [choice, setChoice] = useState<TemplateChoice | null>(() =>
    target?.mode === 'add' && target.template
      ? { id: target.template.id, name: templateNameText(target.template), info: target.template }
      : null,
  )
  const [name, setName] = useState('')
  const [devicecode, setDevicecode] = useState('')
  const [customs, setCustoms] = useState<CustomRow[]>([])
  const [isLoading, setIsLoading] = useState(target?.mode === 'modify')
  const [loadError, setLoadError] = useState<unknown>(null)
  const [areCustomsLoading, setAreCustomsLoading] = useState(false)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)

  // Modify: the record with its custom properties.
  const loadDetail = useCallback(async () => {
    if (!poiId) return
    setIsLoading(true)
    setLoadError(null)
    try {
      const detail = await services.findPoiDetail(poiId)
      const info: PoiTemplateInfo = store.template(detail.category_id) ?? {
        id: detail.category_id,
        name: detail.template_name,
        ...(detail.template_name_key ? { name_key: detail.template_name_key } : {}),
        type: detail.type,
        category_node_id: detail.category_node_id,
        poicategory_code: detail.poicategory_code,
        iconpath: detail.iconpath,
        jpg_name: detail.jpg_name,
        sbm_name: detail.sbm_name,
        filepath: detail.filepath,
      }
      setChoice({ id: info.id, name: templateNameText(info) || detail.template_name, info })
      setName(detail.name)
      setDevicecode(detail.devicecode)
      setCustoms(
        detail.customs.map((custom) => ({
          property_column: custom.property_column,
          column_des: custom.column_des,
          value: custom.column_value,
          initial: custom.column_value,
        })),
      )
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [poiId, services, store])

  useEffect(() => {
    void loadDetail()
  }, [loadDetail])

  // Add: the chosen template's static attributes become the custom properties.
  const chosenId = choice?.id ?? null
  useEffect(() => {
    if (!isAdd || !chosenId) return
    let isCurrent = true
    setAreCustomsLoading(true)
    services
      .listAttributes(chosenId)
      .then((attributes) => {
        if (!isCurrent) return
        setCustoms(
          attributes.map((attribute) => ({
            property_column: attribute.property_column,
            column_des: attribute.column_des,
            value: attribute.column_example,
            initial: attribute.column_example,
          })),
        )
      })
      .catch(() => {
        // Without its attributes the POI still gets them from the template on the server.
        if (isCurrent) setCustoms([])
      })
      .finally(() => {
        if (isCurrent) setAreCustomsLoading(false)
      })
    return () => {
      isCurrent = false
    }
  }, [isAdd, chosenId, services])

  const loadTemplates = useCallback(
    async (pageNo: number, pageSize: number) => {
      const page = await services.listTemplates({ pageNo, pageSize })
      return {
        total: page.total,
        list: page.list.map((template) => ({
          id: template.id,
          name: templateNameText(template),
          info: templateInfoOf(template),
        })),
      }
    },
    [services],
  )

  const errors = validatePoiForm({
    template: choice?.info ?? null,
    name,
    devicecode,
    frame: store.state.frame,
    isAdd,
    floorId: target?.mode === 'add' ? target.floorId : null,
    poiId,
    entries: store.entries(),
  })
  const shown = hasTriedSubmit ? errors : { devicecode: errors.devicecode }

  async function submit() {
    setHasTriedSubmit(true)
    if (!target || Object.keys(errors).length > 0 || !choice) return
    const changedCustoms: PoiCustomInput[] = customs
      .filter((row) => isAdd || row.value !== row.initial)
      .map((row) => ({
        property_column: row.property_column,
        column_des: row.column_des,
        column_value: row.value,
      }))
    if (target.mode === 'add') {
      const created = await store.create({
        name: name.trim(),
        template: choice.info,
        position: target.position,
        heading: target.heading ?? 0,
        floorId: target.floorId ?? null,
        devicecode: devicecode.trim(),
        ...(changedCustoms.length > 0 && { customs: changedCustoms }),
      })
      if (created) {
        onSaved?.(created)
        onClose()
      }
      return
    }
    const entry = poiId ? store.get(poiId) : undefined
    if (!entry) return
    const changes: PoiChanges = {}
    if (name.trim() !== entry.name) changes.name = name.trim()
    if (choice.id !== entry.templateId) changes.template = choice.info
    if (devicecode.trim() !== entry.devicecode) changes.devicecode = devicecode.trim()
    if (changedCustoms.length > 0) changes.customs = changedCustoms
    const isSaved = Object.keys(changes).length === 0 || (await store.update(entry.id, changes))
    if (isSaved) {
      onSaved?.(store.get(entry.id) ?? entry)
      onClose()
    }
  }

  return (
    <FormDialog
      isOpen={target !== null}
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose()
      }}
      title={title}
      submitLabel={isAdd ? <Trans>Save</Trans> : <Trans>Modify</Trans>}
      onSubmit={submit}
      isBusy={isLoading}
      isSubmitDisabled={loadError !== null}
      widthPx={520}
    >
      {isLoading ? (
        <div className="ts-poi-form__loading">
          <Spinner label={t`Loading the POI…`} />
        </div>
      ) : loadError !== null ? (
        <ErrorState message={errorText(loadError)} onRetry={() => void loadDetail()} />
      ) : (
        <>
          {shown.floor && (
            <p className="ts-poi-form__alert" role="alert">
              <Trans>Select the floor which the POI is placed.</Trans>
            </p>
          )}
          <PagedSelect<TemplateChoice>
            label={<Trans>Template</Trans>}
            placeholder={t`Select the POI category`}
            loadPage={loadTemplates}
            labelOf={(item) => item.name}
            value={choice}
            onChange={(item) => {
              setChoice(item)
              if (name.trim() === '') setName(item.name)
            }}
            testId="poi-form-template"
          />
          {shown.template && (
            <p className="ts-poi-form__alert" role="alert">
              <Trans>Select the POI category</Trans>
            </p>
          )}
          <TextField
            label={<Trans>Name</Trans>}
            value={name}
            required
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
            error={shown.name ? t`Enter the POI's name.` : undefined}
          />
          <TextField
            label={<Trans>Device code</Trans>}
            value={devicecode}
            maxLength={100}
            onChange={(event) => setDevicecode(event.target.value)}
            hint={t`Links the POI to a device; unique in the project.`}
            error={
              shown.devicecode
                ? t`This device code is already given to ${shown.devicecode.takenBy}.`
                : undefined
            }
          />
          <fieldset className="ts-poi-form__customs">
            <legend>
              <Trans>Custom properties</Trans>
            </legend>
            {areCustomsLoading ? (
              <Spinner label={t`Loading the template's properties…`} />
            ) : customs.length === 0 ? (
              <p className="ts-poi-form__empty">
                {choice ? (
                  <Trans>This template has no static attributes.</Trans>
                ) : (
                  <Trans>Choose a template to see its properties.</Trans>
                )}
              </p>
            ) : (
              customs.map((row, index) => (
                <TextField
                  key={row.property_column}
                  label={`${row.column_des || row.property_column} (${row.property_column})`}
                  value={row.value}
                  maxLength={500}
                  onChange={(event) => {
                    const value = event.target.value
                    setCustoms((rows) =>
                      rows.map((candidate, at) =>
                        at === index ? { ...candidate, value } : candidate,
                      ),
                    )
                  }}
                />
              ))
            )}
          </fieldset>
        </>
      )}
    </FormDialog>
  )
}
