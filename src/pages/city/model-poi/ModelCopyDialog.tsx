import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import type { GisModel } from '../../../api/city'
import { type CopyModelDatum, modelCopyLimits } from '../../../api/model-copy'
import type { ModelPoiItem } from '../../../api/pois'
import { showErrorToast } from '../../../components/feedback/error-text'
import { type PoiEntry, type PoiStore, poiStore } from '../../../state/pois'
import { Button, Dialog, TextField } from '../../../ui'
import {
  type CopyLayout,
  copyCount,
  copyOffsets,
  defaultCopyLayout,
  validateCopyLayout,
} from '../../pois/copy-layouts'
import { CopyLayoutFields, CopyPropertiesAndTotal } from '../../pois/CopyLayoutFields'
import { copiesOf, copyName } from '../../pois/PoiCopyDialog'
import type { ModelPoiServices } from './model-poi-services'

/** Props of {@link ModelCopyDialog}. */
export interface ModelCopyDialogProps {
  /** The model to copy; null: closed. */
  model: GisModel | null
  /** The POIs attached to it (they are copied along). */
  items: readonly ModelPoiItem[]
  services: ModelPoiServices
  onClose: () => void
  onCopied: (datum: CopyModelDatum) => void
  store?: PoiStore
}

/**
 * Model copy (SPEC §2 "model copy" popup): copies a model with its POIs in the layouts of POI
 * copy (default, single row, single column, array, multi-layer array; spacings in metres). The
 * copied POIs are drawn as ghosts while the numbers change; Copy makes every copy in one
 * `copyModel` call, so a refusal leaves nothing half-copied.
 */
export function ModelCopyDialog({
  model,
  items,
  services,
  onClose,
  onCopied,
  store = poiStore,
}: ModelCopyDialogProps) {
  const { t } = useLingui()
  const [layout, setLayout] = useState<CopyLayout>(() => defaultCopyLayout('singleRow'))
  const [baseName, setBaseName] = useState('')
  const [isCopyProperties, setIsCopyProperties] = useState(true)
  const [isCopying, setIsCopying] = useState(false)
  const isOpen = model !== null

  // a new model to copy starts from its own name
  useEffect(() => {
    if (model) setBaseName(model.modelname)
  }, [model])

  const itemsKey = items.map((item) => item.id).join(',')
  const sources = useMemo(
    () =>
      itemsKey === ''
        ? []
        : itemsKey
            .split(',')
            .map((id) => store.get(id))
            .filter((entry): entry is PoiEntry => entry !== undefined),
    [itemsKey, store],
  )
  const issues = validateCopyLayout(layout)
  const copies = Object.keys(issues).length === 0 ? copyCount(layout) : 0
  const isTooMany = copies > modelCopyLimits.maxCopies
  const name = baseName.trim()
  const isValid = Object.keys(issues).length === 0 && !isTooMany && name !== ''

  useEffect(() => {
    if (!isOpen || !isValid || sources.length === 0) {
      store.setGhosts([])
      return undefined
    }
    const ghosts = copiesOf(store, sources, layout).map((copy, index) =>
      store.scenePoiOf({
        id: `model-ghost-${index}`,
        name: copy.name,
        templateId: copy.template.id,
        position: copy.position,
        heading: copy.heading ?? 0,
        pitch: copy.pitch ?? 0,
        roll: copy.roll ?? 0,
        floorId: null,
        pid: '',
        devicecode: '',
        level: 0,
        distanceMin: null,
        distanceMax: null,
        isPending: true,
      }),
    )
    store.setGhosts(ghosts)
    return () => store.setGhosts([])
  }, [isOpen, isValid, sources, layout, store])

  async function copy() {
    if (!model || !isValid) return
    setIsCopying(true)
    try {
      const datum = await services.copyModel({
        model_id: model.id,
        isCopyProperties,
        copies: copyOffsets(layout).map((offset, index) => ({
          modelname: copyName(name, index),
          east: offset.eastMeters,
          north: offset.northMeters,
          up: offset.upMeters,
        })),
      })
      onCopied(datum)
      onClose()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsCopying(false)
    }
  }

  const modelname = model?.modelname ?? ''
  const poiTotal = copies * items.length
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title={t`Model copy`}
      description={<Trans>Copies of {modelname} with its POIs</Trans>}
      widthPx={520}
      footer={
        <>
          <Button onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            variant="primary"
            onClick={() => void copy()}
            isBusy={isCopying}
            disabled={!isValid}
          >
            <Trans>Copy</Trans>
          </Button>
        </>
      }
    >
      <div className="ts-poi-copy" data-testid="model-copy">
        <TextField
          label={t`Name of the copies`}
          value={baseName}
          maxLength={modelCopyLimits.modelnameMaxLength - 5}
          required
          onChange={(event) => setBaseName(event.target.value)}
          {...(name === '' ? { error: t`Give the copies a name.` } : {})}
          hint={t`Numbered: ${copyName(name || modelname, 0)}, ${copyName(name || modelname, 1)}…`}
        />
        <CopyLayoutFields
          layout={layout}
          setLayout={setLayout}
          radioName="model-copy-layout"
          maxCount={modelCopyLimits.maxCopies}
          spacingStep={1}
        />
        <CopyPropertiesAndTotal
          isCopyProperties={isCopyProperties}
          setIsCopyProperties={setIsCopyProperties}
          problem={isTooMany ? 'tooMany' : issues.copies === 'range' ? 'range' : null}
          tooManyMessage={
            <Trans>At most {modelCopyLimits.maxCopies} copies of a model at a time.</Trans>
          }
          total={
            <Trans>
              Creates {copies} models and {poiTotal} POIs (previewed in the scene).
            </Trans>
          }
        />
      </div>
    </Dialog>
  )
}
