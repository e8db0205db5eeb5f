import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { findModelsByCompany, type ModelDetail } from '../../../api/model-details'
import { errorText } from '../../../components/feedback/error-text'
import { EmptyState, ErrorState } from '../../../ui'
import { ModelDocuments } from './ModelDocuments'

type Groups = Array<{ company: string; models: ModelDetail[] }>

/**
 * Model → Equipment (issue 21 item 5, `findCompanyAndModel`): the building's models that have
 * details, grouped by manufacturer, with product, serial number, install date and the documents
 * attached (links that download them). The details are entered in the pick info box of a picked
 * model.
 */
export function ModelsByCompanyPanel({
  projectId,
  load = findModelsByCompany,
}: {
  projectId: string
  load?: typeof findModelsByCompany
}) {
  const { t } = useLingui()
  const [groups, setGroups] = useState<Groups | null>(null)
  /** What failed, read out in the language of the moment. */
  const [failure, setFailure] = useState<{ error: unknown } | null>(null)
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry is a new attempt
  useEffect(() => {
    let isCurrent = true
    setFailure(null)
    load(projectId).then(
      (found) => {
        if (isCurrent) setGroups(found)
      },
      (error: unknown) => {
        if (isCurrent) setFailure({ error })
      },
    )
    return () => {
      isCurrent = false
    }
  }, [projectId, load, attempt])

  if (failure) {
    return (
      <ErrorState message={errorText(failure.error)} onRetry={() => setAttempt((n) => n + 1)} />
    )
  }
  if (!groups) {
    return (
      <p role="status">
        <Trans>Loading the equipment…</Trans>
      </p>
    )
  }
  if (groups.length === 0) {
    return (
      <EmptyState
        title={<Trans>No model has details yet</Trans>}
        description={
          <Trans>Pick a model in the building and add its manufacturer, product and serial.</Trans>
        }
      />
    )
  }
  return (
    <div className="ts-bim4-equipment" data-testid="models-by-company">
      {groups.map((group) => (
        <section
          key={group.company}
          className="ts-bim4-equipment__company"
          aria-label={group.company || t`No manufacturer`}
        >
          <h2 className="ts-bim4-equipment__name">
            {group.company || <Trans>No manufacturer</Trans>}
          </h2>
          <ul className="ts-plain-list">
            {group.models.map((detail) => (
              <li key={detail.id} className="ts-list-row ts-bim4-equipment__model">
                <strong>{detail.model_name}</strong>
                <span>
                  {[detail.product, detail.serial_number, detail.install_date]
                    .filter((part) => part !== '')
                    .join(' · ')}
                </span>
                <ModelDocuments detail={detail} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}
