import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import type { StructureAddFileField } from '../../../contract/model-config'
import {
  findStructureAddStatus,
  previewStructureAdd,
  type StructureAddPlan,
  type StructureAddStatusDatum,
  type StructureChange,
  startStructureAdd,
} from '../../api/model-config'
import type { PageProps } from '../../app/page-props'
import { errorText } from '../../components/feedback/error-text'
import { Button, ErrorState, Select, TextField, TableHead, toast } from '../../ui'
import {
  type AddForm,
  type AddFormField,
  addFormData,
  addPreviewInput,
  checkAddForm,
  emptyAddForm,
} from './add-form'
import { mergeAccept } from './merge-form'
import { ModelFileInput } from './ModelFileInput'
import {
  OpenInBuildingEditor,
  StructureJobFailure,
  StructureJobProgress,
  StructureJobWarnings,
} from './StructureJobViews'
import { problemsLine, problemTexts, useBuildingProjects, useStructureJob } from './structure-job'
import './model-config.css'

/**
 * Model config → structure add (SPEC §2 `/modelConfig/add`): new floor models for, or a new
 * shell of, an existing building project. The structure the chosen files would leave is shown
 * before anything is sent (the server plans it from the names, as it will when saving): which
 * floors are added where, which are replaced, which stay. Saving uploads with real progress,
 * then shows the server's steps until the building can be opened.
 */
export function StructureAddPage(_props: Partial<PageProps>) {
  const { t, i18n } = useLingui()
  const [projectId, setProjectId] = useState<string | null>(null)
  const [form, setForm] = useState<AddForm>(emptyAddForm)
  const [storeyHeight, setStoreyHeight] = useState('3')
  const [problems, setProblems] = useState<Partial<Record<AddFormField, string>>>({})
  const [plan, setPlan] = useState<StructureAddPlan | null>(null)
  const [planError, setPlanError] = useState<string | null>(null)
  const projects = useBuildingProjects((error) => setPlanError(errorText(error)))
  const job = useStructureJob(findStructureAddStatus)
  const { phase, isBusy } = job

  const height = Number(storeyHeight)
  const storeyHeightMeters = Number.isFinite(height) && height > 0 ? height : undefined

  // the preview follows every choice: the structure as it is, then as the files would leave it
  useEffect(() => {
    if (projectId === null) {
      setPlan(null)
      return
    }
    const controller = new AbortController()
    previewStructureAdd(addPreviewInput(form, projectId, storeyHeightMeters), controller.signal)
      .then((next) => {
        setPlan(next)
        setPlanError(null)
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setPlan(null)
        setPlanError(errorText(error))
      })
    return () => controller.abort()
  }, [projectId, form, storeyHeightMeters])

  function choose(field: StructureAddFileField) {
    return (files: File[]) => {
      setForm((current) => ({ ...current, [field]: files }))
      setProblems((current) => ({ ...current, [field]: undefined }))
      if (!isBusy) job.reset()
    }
  }

  async function save() {
    const texts = problemTexts(checkAddForm(form, projectId), i18n)
    setProblems(texts)
    if (Object.keys(texts).length > 0 || projectId === null) {
      toast.warning(problemsLine(texts))
      return
    }
    await job.start(
      (onProgress) =>
        startStructureAdd(addFormData(form, projectId, storeyHeightMeters), onProgress),
      {
        onSucceeded: () => {
          toast.success(t`The structure was saved.`)
          setForm(emptyAddForm)
        },
      },
    )
  }

  const fileFields: Array<{ field: StructureAddFileField; label: string; isMultiple: boolean }> = [
    { field: 'shell', label: t`New shell model`, isMultiple: false },
    { field: 'shell_maps', label: t`Shell maps`, isMultiple: true },
    { field: 'floors', label: t`Floor models to add or replace`, isMultiple: true },
    { field: 'floor_maps', label: t`Floor maps`, isMultiple: true },
  ]
  const project = projects.find((candidate) => candidate.id === projectId)
  const ended = phase.kind === 'ended' ? phase.status : null

  return (
    <section className="ts-model-config" data-testid="page-modelConfigAdd">
      <h1 className="ts-page-title">
        <Trans>Structure add</Trans>
      </h1>
      <p className="ts-model-config__lead">
        <Trans>
          Add floors to a building project or replace its shell. A floor model named like an
          existing floor (2F.fbx for 2F) replaces that floor's model; other floors are stacked above
          the top floor, basements (B1…) below the lowest. Check the result below before saving.
        </Trans>
      </p>

      <div className="ts-model-config__inputs">
        <Select
          label={<Trans>Building project</Trans>}
          options={projects.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
          value={projectId ?? ''}
          placeholder={t`Choose a building project`}
          error={problems.project}
          disabled={isBusy}
          onValueChange={(value) => {
            setProjectId(value)
            setProblems((current) => ({ ...current, project: undefined }))
            job.reset()
          }}
        />
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
          label={<Trans>Storey height (m)</Trans>}
          type="number"
          min={0.1}
          max={100}
          step={0.1}
          value={storeyHeight}
          disabled={isBusy}
          onChange={(event) => setStoreyHeight(event.target.value)}
        />
      </div>

      {planError && (
        <div data-testid="add-preview-error">
          <ErrorState title={<Trans>The result cannot be shown</Trans>} message={planError} />
        </div>
      )}
      {plan && <StructurePlanTable plan={plan} isSaved={ended?.state === 'succeeded'} />}

      <div className="ts-model-config__row">
        <Button
          variant="primary"
          onClick={() => void save()}
          isBusy={isBusy}
          data-testid="add-save"
        >
          <Trans>Save to the project</Trans>
        </Button>
        {ended?.state === 'succeeded' && project && (
          <OpenInBuildingEditor project={project} testId="add-open-project" />
        )}
      </div>

      <StructureJobProgress
        phase={phase}
        workingLabel={t`Saving`}
        refusedTitle={<Trans>The add was refused</Trans>}
        errorTestId="add-error"
      />
      {ended && <AddOutcome status={ended} />}
    </section>
  )
}

/** The shell and floors as the add would leave them (or, once saved, as it left them). */
function StructurePlanTable({ plan, isSaved }: { plan: StructureAddPlan; isSaved: boolean }) {
  const { t } = useLingui()
  const changeText: Record<StructureChange, string> = {
    kept: t`Unchanged`,
    added: t`New`,
    replaced: t`Replaced`,
  }
  const floors = [...plan.floors].reverse()
  return (
    <section className="ts-boxed ts-model-config__result" data-testid="add-preview">
      <h2 className="ts-model-config__subtitle">
        {isSaved ? <Trans>The saved structure</Trans> : <Trans>Result before saving</Trans>}
        {': '}
        {plan.name}
      </h2>
      <table className="ts-table">
        <TableHead
          columns={[
            { key: 'part', label: <Trans>Part</Trans> },
            { key: 'elevation', label: <Trans>Elevation (m)</Trans> },
            { key: 'models', label: <Trans>Models</Trans> },
            { key: 'change', label: <Trans>Change</Trans> },
          ]}
        />
        <tbody>
          <tr data-change={plan.shell?.change ?? 'none'}>
            <td>
              <Trans>Shell</Trans>
            </td>
            <td />
            <td>
              {plan.shell ? plan.shell.fileName : <Trans>No shell</Trans>}
              {plan.shell?.replacesFileName && (
                <>
                  {' '}
                  <Trans>(instead of {plan.shell.replacesFileName})</Trans>
                </>
              )}
            </td>
            <td>{plan.shell ? changeText[plan.shell.change] : ''}</td>
          </tr>
          {floors.map((floor) => (
            <tr key={floor.name} data-change={floor.change}>
              <td>{floor.name}</td>
              <td>{floor.elevation}</td>
              <td>
                {floor.models.join(', ')}
                {floor.sourceName && (
                  <>
                    {' '}
                    <Trans>(from {floor.sourceName})</Trans>
                  </>
                )}
              </td>
              <td>{changeText[floor.change]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {plan.floors.length === 0 && (
        <p className="ts-model-config__summary">
          <Trans>This building has no floors yet.</Trans>
        </p>
      )}
    </section>
  )
}

/** A finished add: what it did and its warnings, or why it stopped. */
function AddOutcome({ status }: { status: StructureAddStatusDatum }) {
  const { t } = useLingui()
  if (status.state !== 'succeeded') {
    return (
      <StructureJobFailure
        status={status}
        title={<Trans>The add failed; nothing was saved</Trans>}
        unfinishedText={t`The add did not finish.`}
        testId="add-error"
      />
    )
  }
  const added = status.plan.floors.filter((floor) => floor.change === 'added').length
  const replaced = status.plan.floors.filter((floor) => floor.change === 'replaced').length
  return (
    <section className="ts-boxed ts-model-config__result" data-testid="add-result">
      <p className="ts-model-config__success" role="status">
        <Trans>
          Saved: {added} floors added, {replaced} replaced.
        </Trans>
      </p>
      <StructureJobWarnings warnings={status.warnings} testId="add-warnings" />
    </section>
  )
}
