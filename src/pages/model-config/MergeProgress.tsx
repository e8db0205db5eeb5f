import { useLingui } from '@lingui/react/macro'
import type { MergeStep } from '../../api/model-config'

/**
 * The progress bar of a model-config job (merge or add) and the list of its steps with their
 * states: which model is converting, which are done, which one failed.
 */
export function MergeProgress({
  fraction,
  label,
  steps,
}: {
  fraction: number
  label: string
  steps: readonly MergeStep[]
}) {
  const { t } = useLingui()
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100)
  const kindText: Record<MergeStep['kind'], string> = {
    shell: t`Shell`,
    floor: t`Floor`,
    structure: t`Structure`,
    install: t`Install into the project`,
  }
  const stateText: Record<MergeStep['state'], string> = {
    waiting: t`Waiting`,
    running: t`Working`,
    done: t`Done`,
    failed: t`Failed`,
  }
  return (
    <div className="ts-model-config__progress" data-testid="merge-progress">
      <div className="ts-model-config__row">
        <progress max={100} value={percent} aria-label={label} />
        <span>
          {label} {percent}%
        </span>
      </div>
      {steps.length > 0 && (
        <ol className="ts-model-config__steps">
          {steps.map((step) => (
            <li key={`${step.kind}-${step.name}`} data-state={step.state}>
              {kindText[step.kind]}: {step.name} — {stateText[step.state]}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
