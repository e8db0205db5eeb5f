import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { Project } from '../../api/project'
import { errorText } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { enterProject } from '../../components/project/enter-project'
import { Button, ErrorState, toast } from '../../ui'
import { MergeProgress } from './MergeProgress'
import type { StructureJobPhase, StructureJobStatus } from './structure-job'

/** A message of a job's status (its refusal or a warning) in the user's language. */
function jobMessageText(
  item: NonNullable<StructureJobStatus['error']>,
  code: '0' | '1' = '0',
): string {
  return serverMessageText({ code, messageId: item.messageId, params: item.params, datum: null })
}

/**
 * A merge or an add while it goes: the upload (the first fifth of the bar), then the server's
 * steps; or why it was refused before it started.
 */
export function StructureJobProgress<Status extends StructureJobStatus>({
  phase,
  workingLabel,
  refusedTitle,
  errorTestId,
}: {
  phase: StructureJobPhase<Status>
  workingLabel: string
  refusedTitle: ReactNode
  errorTestId: string
}) {
  const { t } = useLingui()
  return (
    <>
      {phase.kind === 'uploading' && (
        <MergeProgress fraction={phase.fraction * 0.2} label={t`Uploading`} steps={[]} />
      )}
      {phase.kind === 'working' && (
        <MergeProgress
          fraction={0.2 + phase.status.progress * 0.8}
          label={workingLabel}
          steps={phase.status.steps}
        />
      )}
      {phase.kind === 'refused' && (
        <div data-testid={errorTestId}>
          <ErrorState title={refusedTitle} message={phase.message} />
        </div>
      )}
    </>
  )
}

/** A job that ended without success: the step it stopped at, and why. */
export function StructureJobFailure({
  status,
  title,
  unfinishedText,
  testId,
}: {
  status: StructureJobStatus
  title: ReactNode
  unfinishedText: string
  testId: string
}) {
  const { t } = useLingui()
  const message = status.error ? jobMessageText(status.error, '1') : unfinishedText
  return (
    <div data-testid={testId}>
      <MergeProgress fraction={status.progress} label={t`Stopped`} steps={status.steps} />
      <ErrorState title={title} message={message} />
    </div>
  )
}

/** What a finished job wants the user to know (maps no model used, textures converted…). */
export function StructureJobWarnings({
  warnings,
  testId,
}: {
  warnings: StructureJobStatus['warnings']
  testId: string
}) {
  if (warnings.length === 0) return null
  return (
    <ul className="ts-warning-list" data-testid={testId}>
      {warnings.map((warning) => (
        <li key={`${warning.messageId} ${JSON.stringify(warning.params)}`}>
          {jobMessageText(warning)}
        </li>
      ))}
    </ul>
  )
}

/** Opens the building project the job changed in the building editor. */
export function OpenInBuildingEditor({ project, testId }: { project: Project; testId: string }) {
  return (
    <Button
      data-testid={testId}
      onClick={() =>
        void enterProject(project).catch((error: unknown) => toast.error(errorText(error)))
      }
    >
      <Trans>Open in the building editor</Trans>
    </Button>
  )
}
