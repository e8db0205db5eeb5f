import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import type { ValidationIssue } from '../../../contract/envelope'
import type { MergeFileField } from '../../../contract/model-config'
import { ApiError } from '../../api/client'
import { findMergeStatus, type MergeStatusDatum, startMerge } from '../../api/model-config'
import { findProjects, type Project } from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { errorText } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { enterProject } from '../../components/project/enter-project'
import { Button, ErrorState, formatFileSize, Select, TextField, toast } from '../../ui'
import {
  checkMergeForm,
  type MergeForm,
  type MergeFormField,
  mergeAccept,
  mergeFormData,
} from './merge-form'
import { MergeProgress } from './MergeProgress'
import { ModelFileInput } from './ModelFileInput'
import './model-config.css'

/** The project choice that installs the result nowhere (download only). */
const noProject = 'none'
/** How often a running merge is asked for its steps. */
const pollIntervalMs = 500

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'merging'; status: MergeStatusDatum }
  | { kind: 'ended'; status: MergeStatusDatum }
  | { kind: 'refused'; message: string }

const emptyForm: MergeForm = {
  shell: [],
  shell_maps: [],
  floors: [],
  floor_maps: [],
  preview: [],
  output_name: '',
}

/** Field problems the server named in a refusal's details, in the user's language. */
function fieldProblemsOf(error: unknown): Partial<Record<MergeFormField, string>> {
  if (!(error instanceof ApiError)) return {}
  const details = (error.datum as { details?: ValidationIssue[] } | null)?.details ?? []
  const problems: Partial<Record<MergeFormField, string>> = {}
  for (const detail of details) {
    if (!detail.messageId) continue
    problems[detail.field as MergeFormField] = serverMessageText({
      code: error.code,
      messageId: detail.messageId,
      params: detail.params ?? {},
      datum: null,
    })
  }
  return problems
}

/**
 * Model config → structure merge (SPEC §2 `/modelConfig/merge`, §5): a shell model, its maps,
 * floor models, their maps, a preview image and an output name become one building structure.
 * Every missing input is named by its field before anything is sent; the upload shows its real
 * progress, then the server's steps (shell, each floor bottom-up, the structure, the install)
 * until the result can be downloaded or opened in the building editor.
 */
export function ModelMergePage(_props: Partial<PageProps>) {
  const { t, i18n } = useLingui()
  const [form, setForm] = useState<MergeForm>(emptyForm)
  const [problems, setProblems] = useState<Partial<Record<MergeFormField, string>>>({})
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [projects, setProjects] = useState<Project[]>([])
  const [targetProjectId, setTargetProjectId] = useState<string>(noProject)
  const [storeyHeight, setStoreyHeight] = useState('3')
  const pollRef = useRef<AbortController | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    findProjects({ kind: 'building', pageSize: 100 }, controller.signal).then(
      (page) => setProjects(page.list),
      // installing is optional: without the list the page still merges and downloads
      () => undefined,
    )
    return () => {
      controller.abort()
      pollRef.current?.abort()
    }
  }, [])

  const isBusy = phase.kind === 'uploading' || phase.kind === 'merging'

  function choose(field: MergeFileField) {
    return (files: File[]) => {
      setForm((current) => ({ ...current, [field]: files }))
      setProblems((current) => ({ ...current, [field]: undefined }))
    }
  }

  async function poll(id: string, signal: AbortSignal) {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs))
      if (signal.aborted) return
      try {
        const status = await findMergeStatus(id, signal)
        if (status.state === 'queued' || status.state === 'running') {
          setPhase({ kind: 'merging', status })
          continue
        }
        setPhase({ kind: 'ended', status })
        if (status.state === 'succeeded') toast.success(t`The structure was merged.`)
        return
      } catch (error) {
        if (signal.aborted) return
        setPhase({ kind: 'refused', message: errorText(error) })
        return
      }
    }
  }

  async function merge() {
    const found = checkMergeForm(form)
    const texts = Object.fromEntries(
      Object.entries(found).map(([field, descriptor]) => [
        field,
        i18n._(descriptor as MessageDescriptor),
      ]),
    ) as Partial<Record<MergeFormField, string>>
    setProblems(texts)
    if (Object.keys(texts).length > 0) {
      toast.warning(Object.values(texts).join(' '))
      return
    }
    const height = Number(storeyHeight)
    const data = mergeFormData(form, {
      projectId: targetProjectId === noProject ? undefined : targetProjectId,
      storeyHeightMeters: Number.isFinite(height) && height > 0 ? height : undefined,
    })
    setPhase({ kind: 'uploading', fraction: 0 })
    try {
      const status = await startMerge(data, (sent, total) =>
        setPhase({ kind: 'uploading', fraction: total > 0 ? sent / total : 0 }),
      )
      setPhase({ kind: 'merging', status })
      pollRef.current?.abort()
      const controller = new AbortController()
      pollRef.current = controller
      void poll(status.id, controller.signal)
    } catch (error) {
      setProblems(fieldProblemsOf(error))
      setPhase({ kind: 'refused', message: errorText(error) })
    }
  }

  const projectOptions = [
    { value: noProject, label: t`No project (download only)` },
    ...projects.map((project) => ({ value: project.id, label: project.name })),
  ]

  const fileFields: Array<{ field: MergeFileField; label: string; isMultiple: boolean }> = [
    { field: 'shell', label: t`Shell model`, isMultiple: false },
    { field: 'shell_maps', label: t`Shell maps`, isMultiple: true },
    { field: 'floors', label: t`Floor models`, isMultiple: true },
    { field: 'floor_maps', label: t`Floor maps`, isMultiple: true },
    { field: 'preview', label: t`Preview image`, isMultiple: false },
  ]

  return (
    <section className="ts-model-config" data-testid="page-modelConfigMerge">
      <h1 className="ts-page-title">
        <Trans>Structure merge</Trans>
      </h1>
      <p className="ts-model-config__lead">
        <Trans>
          Merge a shell model, floor models and their maps into one building structure. Floors are
          stacked bottom-up by their names (B1, 1F, 2F…).
        </Trans>
      </p>

      <div className="ts-model-config__inputs">
        {fileFields.map(({ field, label, isMultiple }) => (
          <ModelFileInput
            key={field}
            field={field}
            label={label}
            accept={mergeAccept[field]}
            isMultiple={isMultiple}
            files={form[field]}
            problem={problems[field]}
            disabled={isBusy}
            onChoose={choose(field)}
          />
        ))}
        <TextField
          label={<Trans>Output file name</Trans>}
          value={form.output_name}
          maxLength={100}
          disabled={isBusy}
          error={problems.output_name}
          data-testid="merge-output-name"
          onChange={(event) => {
            const value = event.target.value
            setForm((current) => ({ ...current, output_name: value }))
            setProblems((current) => ({ ...current, output_name: undefined }))
          }}
        />
        <TextField
          label={<Trans>Storey height (m)</Trans>}
          type="number"
          min={0.1}
          max={100}
          step={0.1}
          value={storeyHeight}
          disabled={isBusy}
          onChange={(event) => setStoreyHeight(event.target.value)}
        />
        <Select
          label={<Trans>Install the result into a building project</Trans>}
          options={projectOptions}
          value={targetProjectId}
          onValueChange={setTargetProjectId}
        />
      </div>

      <div className="ts-model-config__row">
        <Button onClick={() => void merge()} isBusy={isBusy} data-testid="merge-start">
          <Trans>Merge</Trans>
        </Button>
      </div>

      {phase.kind === 'uploading' && (
        <MergeProgress fraction={phase.fraction * 0.2} label={t`Uploading`} steps={[]} />
      )}
      {phase.kind === 'merging' && (
        <MergeProgress
          fraction={0.2 + phase.status.progress * 0.8}
          label={t`Merging`}
          steps={phase.status.steps}
        />
      )}
      {phase.kind === 'refused' && (
        <div data-testid="merge-error">
          <ErrorState title={<Trans>The merge was refused</Trans>} message={phase.message} />
        </div>
      )}
      {phase.kind === 'ended' && (
        <MergeResult
          status={phase.status}
          project={projects.find((project) => project.id === phase.status.result?.projectId)}
        />
      )}
    </section>
  )
}

/** A finished merge: its floors, warnings, the download and the way into the editor. */
function MergeResult({
  status,
  project,
}: {
  status: MergeStatusDatum
  project?: Project | undefined
}) {
  const { t } = useLingui()
  if (status.state !== 'succeeded' || !status.result) {
    const message = status.error
      ? serverMessageText({
          code: '1',
          messageId: status.error.messageId,
          params: status.error.params,
          datum: null,
        })
      : t`The merge did not finish.`
    return (
      <div data-testid="merge-error">
        <MergeProgress fraction={status.progress} label={t`Stopped`} steps={status.steps} />
        <ErrorState title={<Trans>The merge failed</Trans>} message={message} />
      </div>
    )
  }
  const { result } = status
  const sizeText = formatFileSize(result.sizeBytes)
  const floorCount = result.floors.length
  return (
    <section className="ts-model-config__result" data-testid="merge-result">
      <p className="ts-model-config__success" role="status">
        <Trans>
          The structure was merged: a shell and {floorCount} floors, {sizeText}.
        </Trans>
      </p>
      <ol className="ts-model-config__steps">
        {result.floors.map((floor) => (
          <li key={floor.id}>
            {floor.name} — {floor.elevation} m
          </li>
        ))}
      </ol>
      {status.warnings.length > 0 && (
        <ul className="ts-model-config__warnings" data-testid="merge-warnings">
          {status.warnings.map((warning) => (
            <li key={`${warning.messageId} ${JSON.stringify(warning.params)}`}>
              {serverMessageText({
                code: '0',
                messageId: warning.messageId,
                params: warning.params,
                datum: null,
              })}
            </li>
          ))}
        </ul>
      )}
      <div className="ts-model-config__row">
        <a
          className="ts-model-config__download"
          href={result.downloadPath}
          download={result.downloadName}
        >
          <Trans>Download the structure (ZIP)</Trans>
        </a>
        {project && (
          <Button
            data-testid="merge-open-project"
            onClick={() =>
              void enterProject(project).catch((error: unknown) => toast.error(errorText(error)))
            }
          >
            <Trans>Open in the building editor</Trans>
          </Button>
        )}
      </div>
    </section>
  )
}
