import { Trans } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { findModelCount, type ModelCountDatum } from '../../../api/building'

/** Props of {@link ModelCount}. */
export interface ModelCountProps {
  projectId: string
  /** Anything that changes when the model list does (the loaded model info): the count follows. */
  revision: unknown
  load?: typeof findModelCount
}

/**
 * How many models the project has, by role (SPEC §7 `findmodelnum`), above the model list:
 * read again whenever the list changes, so it follows uploads and deletes. Says nothing while
 * there are none (the list says so) or when the count cannot be read.
 */
export function ModelCount({ projectId, revision, load = findModelCount }: ModelCountProps) {
  const [count, setCount] = useState<ModelCountDatum | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `revision` is the signal to read again
  useEffect(() => {
    let isCurrent = true
    load(projectId).then(
      (found) => isCurrent && setCount(found),
      () => isCurrent && setCount(null),
    )
    return () => {
      isCurrent = false
    }
  }, [projectId, revision, load])
  if (!count || count.count === 0) return null
  const { count: total, shell, floor, model } = count
  return (
    <p className="ts-bim4-muted" data-testid="model-count">
      <Trans>
        {total} models: {shell} shell, {floor} floors, {model} other
      </Trans>
    </p>
  )
}
