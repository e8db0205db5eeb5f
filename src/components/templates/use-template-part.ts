import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { confirmDelete, toast } from '../../ui'
import { showErrorToast } from '../feedback/error-text'

/** What {@link useTemplatePart} gives a tab: its data, and add/remove that reload it. */
export interface TemplatePart<Data> {
  /** The loaded data; null while loading (or while there is nothing to load). */
  data: Data | null
  /** Why the last load failed, or null. */
  loadError: unknown
  load: () => Promise<void>
  /** True while an add runs (the add button shows busy and a second submit is ignored). */
  isAdding: boolean
  /**
   * Runs an add: the call, 'Added' (or `successText`), then a reload. A refusal shows the
   * server's reason. Resolves true when it succeeded (so the form can be cleared).
   */
  add: (call: () => Promise<unknown>, successText?: string) => Promise<boolean>
  /** Asks before deleting `itemName`, then deletes, says so and reloads. */
  remove: (itemName: string, call: () => Promise<unknown>) => Promise<void>
}

/**
 * The list side every part of a template tab shares (static attributes, labels): load once the
 * template exists, reload after each change, ask before a delete, toast the outcome.
 * `fetch` must be stable (a useCallback of the template id), or it loads on every render.
 */
export function useTemplatePart<Data>(fetch: (() => Promise<Data>) | null): TemplatePart<Data> {
  const { t } = useLingui()
  const [data, setData] = useState<Data | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isAdding, setIsAdding] = useState(false)

  const load = useCallback(async () => {
    if (fetch === null) return
    setLoadError(null)
    try {
      setData(await fetch())
    } catch (error) {
      setLoadError(error)
    }
  }, [fetch])

  useEffect(() => {
    void load()
  }, [load])

  const add = async (call: () => Promise<unknown>, successText?: string) => {
    setIsAdding(true)
    try {
      await call()
      toast.success(successText ?? t`Added successfully.`)
      await load()
      return true
    } catch (error) {
      showErrorToast(error)
      return false
    } finally {
      setIsAdding(false)
    }
  }

  const remove = async (itemName: string, call: () => Promise<unknown>) => {
    if (!(await confirmDelete({ itemName }))) return
    try {
      await call()
      toast.success(t`Deleted.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return { data, loadError, load, isAdding, add, remove }
}
