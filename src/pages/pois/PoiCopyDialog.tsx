import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import { type NewPoi, type PoiEntry, type PoiStore, poiStore } from '../../state/pois'
import { Button, Dialog } from '../../ui'
import {
  type CopyLayout,
  copyCount,
  copyLimits,
  copyPositions,
  defaultCopyLayout,
  validateCopyLayout,
} from './copy-layouts'
import { CopyLayoutFields, CopyPropertiesAndTotal } from './CopyLayoutFields'
import './pois.css'

/** Props of {@link PoiCopyDialog}. */
export interface PoiCopyDialogProps {
  /** The POIs to copy (a selection is copied as a block); null: closed. */
  sourceIds: readonly string[] | null
  onClose: () => void
  /** The copies made (server ids). */
  onCopied?: (entries: PoiEntry[]) => void
  store?: PoiStore
}

/** The name of copy `index` (0-based) of a POI. */
export function copyName(name: string, index: number): string {
  return `${name}-${index + 1}`
}

/**
 * The copies of some POIs in a layout, ready for `creatPoiList`: each copy keeps its source's
 * template, rotation, floor and parent, takes the layout's position, and names its source
 * (`source_id`) so its custom properties can come along. Device codes stay with the originals
 * (they are unique in a project).
 */
export function copiesOf(
  store: PoiStore,
  sources: readonly PoiEntry[],
  layout: CopyLayout,
): NewPoi[] {
  const frame = store.state.frame ?? 'city'
  return copyPositions(sources, layout, frame).flatMap(({ source, position, index }) => {
    const template = store.template(source.templateId)
    if (!template) return []
    return [
      {
        name: copyName(source.name, index),
        template,
        position,
        heading: source.heading,
        pitch: source.pitch,
        roll: source.roll,
        floorId: source.floorId,
        pid: source.pid,
        sourceId: source.id,
      },
    ]
  })
}

/**
 * POI copy (SPEC §2, §9): copies the chosen POIs in a layout — default, single row, single
 * column, array or multi-layer array — with counts and spacings in metres. The copies are drawn
 * as ghosts while the numbers change and made with one `creatPoiList` on Copy;
 * "Copy custom properties" is its `isCopyProperties`.
 */
export function PoiCopyDialog({
  sourceIds,
  onClose,
  onCopied,
  store = poiStore,
}: PoiCopyDialogProps) {
  const { t } = useLingui()
  const [layout, setLayout] = useState<CopyLayout>(() => defaultCopyLayout('default'))
  const [isCopyProperties, setIsCopyProperties] = useState(true)
  const [isCopying, setIsCopying] = useState(false)
  const isOpen = sourceIds !== null
  const sourcesKey = sourceIds?.join(',') ?? ''
  const sources = useMemo(
    () =>
      sourcesKey === ''
        ? []
        : sourcesKey
            .split(',')
            .map((id) => store.get(id))
            .filter((entry): entry is PoiEntry => entry !== undefined),
    [sourcesKey, store],
  )
  const issues = validateCopyLayout(layout)
  const isValid = Object.keys(issues).length === 0
  const total = isValid ? copyCount(layout) * sources.length : 0

  // The ghosts follow the layout while the dialog is open and go with it.
  useEffect(() => {
    if (!isOpen || !isValid || sources.length === 0) {
      store.setGhosts([])
      return undefined
    }
    const ghosts = copiesOf(store, sources, layout).map((copy, index) =>
      store.scenePoiOf({
        id: `ghost-${index}`,
        name: copy.name,
        templateId: copy.template.id,
        position: copy.position,
        heading: copy.heading ?? 0,
        pitch: copy.pitch ?? 0,
        roll: copy.roll ?? 0,
        floorId: copy.floorId ?? null,
        pid: copy.pid ?? '',
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
    if (!isValid || sources.length === 0) return
    setIsCopying(true)
    try {
      const created = await store.createMany(copiesOf(store, sources, layout), { isCopyProperties })
      if (created) {
        onCopied?.(created)
        onClose()
      }
    } finally {
      setIsCopying(false)
    }
  }

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title={t`POI copy`}
      description={
        sources.length === 1 ? (
          <Trans>Copies of {sources[0]?.name}</Trans>
        ) : (
          <Trans>Copies of {sources.length} POIs, as a block</Trans>
        )
      }
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
            disabled={!isValid || sources.length === 0}
          >
            <Trans>Copy</Trans>
          </Button>
        </>
      }
    >
      <div className="ts-poi-copy">
        <CopyLayoutFields
          layout={layout}
          setLayout={setLayout}
          radioName="poi-copy-layout"
          maxCount={copyLimits.maxPerField}
          spacingStep={0.5}
        />
        <CopyPropertiesAndTotal
          isCopyProperties={isCopyProperties}
          setIsCopyProperties={setIsCopyProperties}
          problem={issues.copies === 'tooMany' || issues.copies === 'range' ? issues.copies : null}
          tooManyMessage={
            <Trans>At most {copyLimits.maxCopies} copies of one POI at a time.</Trans>
          }
          total={<Trans>Creates {total} POIs (previewed in the scene).</Trans>}
        />
      </div>
    </Dialog>
  )
}
