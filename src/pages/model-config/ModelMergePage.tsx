import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { ValidationIssue } from '../../../contract/envelope'
import type { MergeFileField } from '../../../contract/model-config'
import { ApiError } from '../../api/client'
import { findMergeStatus, type MergeStatusDatum, startMerge } from '../../api/model-config'
import type { Project } from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { serverMessageText } from '../../components/feedback/server-messages'
import { Button, formatFileSize, Select, TextField, toast } from '../../ui'
import {
  checkMergeForm,
  type MergeForm,
  type MergeFormField,
  mergeAccept,
  mergeFormData,
} from './merge-form'
import { ModelFileInput } from './ModelFileInput'
import {
  OpenInBuildingEditor,
  StructureJobFailure,
  StructureJobProgress,
  StructureJobWarnings,
} from './StructureJobViews'
import { problemsLine, problemTexts, useBuildingProjects, useStructureJob } from './structure-job'
import './model-config.css'

/** The project choice that installs the result nowhere (download only). */
const noProject = 'none'
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
  // installing is optional: without the list the page still merges and downloads
  const projects = useBuildingProjects(() => undefined)
  const [targetProjectId, setTargetProjectId] = useState<string>(noProject)
  const [storeyHeight, setStoreyHeight] = useState('3')
  const job = useStructureJob(findMergeStatus)
  const { phase, isBusy } = job

  function choose(field: MergeFileField) {
    return (files: File[]) => {
      setForm((current) => ({ ...current, [field]: files }))
      setProblems((current) => ({ ...current, [field]: undefined }))
    }
  }

  async function merge() {
    const texts = problemTexts(checkMergeForm(form), i18n)
    setProblems(texts)
    if (Object.keys(texts).length > 0) {
      toast.warning(problemsLine(texts))
      return
    }
    const height = Number(storeyHeight)
    const data = mergeFormData(form, {
      projectId: targetProjectId === noProject ? undefined : targetProjectId,
      storeyHeightMeters: Number.isFinite(height) && height > 0 ? height : undefined,
    })
    await job.start((onProgress) => startMerge(data, onProgress), {
      onSucceeded: () => toast.success(t`The structure was merged.`),
      onRefused: (error) => setProblems(fieldProblemsOf(error)),
    })
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

      <StructureJobProgress
        phase={phase}
        workingLabel={t`Merging`}
        refusedTitle={<Trans>The merge was refused</Trans>}
        errorTestId="merge-error"
      />
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
    return (
      <StructureJobFailure
        status={status}
        title={<Trans>The merge failed</Trans>}
        unfinishedText={t`The merge did not finish.`}
        testId="merge-error"
      />
    )
  }
  const { result } = status
  const sizeText = formatFileSize(result.sizeBytes)
  const floorCount = result.floors.length
  return (
    <section className="ts-boxed ts-model-config__result" data-testid="merge-result">
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
      <StructureJobWarnings warnings={status.warnings} testId="merge-warnings" />
      <div className="ts-model-config__row">
        <a
          className="ts-model-config__download"
          href={result.downloadPath}
          download={result.downloadName}
        >
          <Trans>Download the structure (ZIP)</Trans>
        </a>
        {project && <OpenInBuildingEditor project={project} testId="merge-open-project" />}
      </div>
    </section>
  )
}
