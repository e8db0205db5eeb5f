import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import type { StructureAddFileField } from '../../../contract/model-config'
import {
  findStructureAddStatus,
  previewStructureAdd,
  type StructureAddPlan,
  type StructureAddStatusDatum,
  type StructureChange,
  startStructureAdd,
} from '../../api/model-config'
import { findProjects, type Project } from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { errorText } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { enterProject } from '../../components/project/enter-project'
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
import { MergeProgress } from './MergeProgress'
import { ModelFileInput } from './ModelFileInput'
import './model-config.css'

/** How often a running add is asked for its steps. */
const pollIntervalMs = 500

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'adding'; status: StructureAddStatusDatum }
  | { kind: 'ended'; status: StructureAddStatusDatum }
  | { kind: 'refused'; message: string }

/**
 * Model config → structure add (SPEC §2 `/modelConfig/add`): new floor models for, or a new
 * shell of, an existing building project. The structure the chosen files would leave is shown
 * before anything is sent (the server plans it from the names, as it will when saving): which
 * floors are added where, which are replaced, which stay. Saving uploads with real progress,
 * then shows the server's steps until the building can be opened.
 */
export function StructureAddPage(_props: Partial<PageProps>) {
  const { t, i18n } = useLingui()
  const [projects, setProjects] = useState<Project[]>([])
  const [projectId, setProjectId] = useState<string | null>(null)
  const [form, setForm] = useState<AddForm>(emptyAddForm)
  const [storeyHeight, setStoreyHeight] = useState('3')
  const [problems, setProblems] = useState<Partial<Record<AddFormField, string>>>({})
  const [plan, setPlan] = useState<StructureAddPlan | null>(null)
  const [planError, setPlanError] = useState<string | null>(null)
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const pollRef = useRef<AbortController | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    findProjects({ kind: 'building', pageSize: 100 }, controller.signal).then(
      (page) => setProjects(page.list),
      (error: unknown) => {
        if (!controller.signal.aborted) setPlanError(errorText(error))
      },
    )
    return () => {
      controller.abort()
      pollRef.current?.abort()
    }
  }, [])

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

  const isBusy = phase.kind === 'uploading' || phase.kind === 'adding'

  function choose(field: StructureAddFileField) {
    return (files: File[]) => {
      setForm((current) => ({ ...current, [field]: files }))
      setProblems((current) => ({ ...current, [field]: undefined }))
      if (phase.kind !== 'uploading' && phase.kind !== 'adding') setPhase({ kind: 'idle' })
    }
  }

  async function poll(id: string, signal: AbortSignal) {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs))
      if (signal.aborted) return
      try {
        const status = await findStructureAddStatus(id, signal)
        if (status.state === 'queued' || status.state === 'running') {
          setPhase({ kind: 'adding', status })
          continue
        }
        setPhase({ kind: 'ended', status })
        if (status.state === 'succeeded') {
          toast.success(t`The structure was saved.`)
          setForm(emptyAddForm)
        }
        return
      } catch (error) {
        if (signal.aborted) return
        setPhase({ kind: 'refused', message: errorText(error) })
        return
      }
    }
  }

  async function save() {
    const found = checkAddForm(form, projectId)
    const texts = Object.fromEntries(
      Object.entries(found).map(([field, descriptor]) => [
        field,
        i18n._(descriptor as MessageDescriptor),
      ]),
    ) as Partial<Record<AddFormField, string>>
    setProblems(texts)
    if (Object.keys(texts).length > 0 || projectId === null) {
      toast.warning([...new Set(Object.values(texts))].join(' '))
      return
    }
    setPhase({ kind: 'uploading', fraction: 0 })
    try {
      const status = await startStructureAdd(
        addFormData(form, projectId, storeyHeightMeters),
        (sent, total) => setPhase({ kind: 'uploading', fraction: total > 0 ? sent / total : 0 }),
      )
      setPhase({ kind: 'adding', status })
      pollRef.current?.abort()
      const controller = new AbortController()
      pollRef.current = controller
      void poll(status.id, controller.signal)
    } catch (error) {
      setPhase({ kind: 'refused', message: errorText(error) })
    }
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
            setPhase({ kind: 'idle' })
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
          <Button
            data-testid="add-open-project"
            onClick={() =>
              void enterProject(project).catch((error: unknown) => toast.error(errorText(error)))
            }
          >
            <Trans>Open in the building editor</Trans>
          </Button>
        )}
      </div>

      {phase.kind === 'uploading' && (
        <MergeProgress fraction={phase.fraction * 0.2} label={t`Uploading`} steps={[]} />
      )}
      {phase.kind === 'adding' && (
        <MergeProgress
          fraction={0.2 + phase.status.progress * 0.8}
          label={t`Saving`}
          steps={phase.status.steps}
        />
      )}
      {phase.kind === 'refused' && (
        <div data-testid="add-error">
          <ErrorState title={<Trans>The add was refused</Trans>} message={phase.message} />
        </div>
      )}
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
    <section className="ts-model-config__result" data-testid="add-preview">
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
    const message = status.error
      ? serverMessageText({
          code: '1',
          messageId: status.error.messageId,
          params: status.error.params,
          datum: null,
        })
      : t`The add did not finish.`
    return (
      <div data-testid="add-error">
        <MergeProgress fraction={status.progress} label={t`Stopped`} steps={status.steps} />
        <ErrorState title={<Trans>The add failed; nothing was saved</Trans>} message={message} />
      </div>
    )
  }
  const added = status.plan.floors.filter((floor) => floor.change === 'added').length
  const replaced = status.plan.floors.filter((floor) => floor.change === 'replaced').length
  return (
    <section className="ts-model-config__result" data-testid="add-result">
      <p className="ts-model-config__success" role="status">
        <Trans>
          Saved: {added} floors added, {replaced} replaced.
        </Trans>
      </p>
      {status.warnings.length > 0 && (
        <ul className="ts-model-config__warnings" data-testid="add-warnings">
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
    </section>
  )
}
