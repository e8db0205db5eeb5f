import { Trans } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import { type PoiStore, poiStore } from '../../state/pois'
import { Button } from '../../ui'
import { PoiBatchAddDialog } from './PoiBatchAddDialog'
import { PoiClassify } from './PoiClassify'
import { PoiCopyDialog } from './PoiCopyDialog'
import { PoiInventory } from './PoiInventory'
import { PoiTable } from './PoiTable'
import { type PoiScreenServices, serverPoiScreenServices } from './poi-services'
import './pois.css'

/** Props of {@link PoiSharedScreens}. */
export interface PoiSharedScreensProps {
  store?: PoiStore
  /** False for a user who may only look: no copy and no batch add. */
  canEdit?: boolean
  /** Height of the inventory's list, px. */
  inventoryHeightPx?: number
  /** The screens' server calls (component tests answer them in memory). */
  services?: PoiScreenServices
}

/**
 * The POI screens both editors show the same way (SPEC §2): the inventory, POI classify, the
 * multi-function table (opened on demand), and the copy and batch-add dialogs, all on the store
 * the editor's scene draws. The building's POI module and the city's POI inventory tab mount it.
 */
export function PoiSharedScreens({
  store = poiStore,
  canEdit = true,
  inventoryHeightPx = 280,
  services = serverPoiScreenServices,
}: PoiSharedScreensProps) {
  const snapshot = useSnapshot(store.state)
  const [copying, setCopying] = useState<readonly string[] | null>(null)
  const [isBatchOpen, setBatchOpen] = useState(false)
  const [isTableOpen, setTableOpen] = useState(false)
  return (
    <div className="ts-poi-shared" data-testid="poi-shared-screens">
      <div className="ts-poi-shared__actions">
        {canEdit && (
          <Button
            disabled={snapshot.selectedIds.length === 0}
            onClick={() => setCopying([...snapshot.selectedIds])}
          >
            <Trans>Copy</Trans>
          </Button>
        )}
        {canEdit && (
          <Button onClick={() => setBatchOpen(true)}>
            <Trans>Batch add POI</Trans>
          </Button>
        )}
        <Button aria-pressed={isTableOpen} onClick={() => setTableOpen((value) => !value)}>
          <Trans>Table</Trans>
        </Button>
      </div>
      <PoiInventory store={store} services={services} heightPx={inventoryHeightPx} />
      <PoiClassify store={store} services={services} />
      {isTableOpen && <PoiTable store={store} heightPx={360} />}
      <PoiCopyDialog sourceIds={copying} onClose={() => setCopying(null)} store={store} />
      <PoiBatchAddDialog
        isOpen={isBatchOpen}
        onClose={() => setBatchOpen(false)}
        store={store}
        services={services}
      />
    </div>
  )
}
