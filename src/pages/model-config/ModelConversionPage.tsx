import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react'
import {
  type ConversionDatum,
  convertDaeOrFbxToSbm,
  convertedModelPath,
  convertGltfToSbm,
  createModelByCategory,
} from '../../api/building'
import { findProjects, type Project } from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { errorText, reasonText, showErrorToast } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { EngineProvider } from '../../engine-bridge'
import { Button, ErrorState, formatFileSize, Select, Spinner, toast } from '../../ui'
import { BuildingCanvas } from '../bim4/BuildingCanvas'
import { useOwnedEngine } from '../bim4/use-owned-engine'
import { uploadWithWindow } from '../bim4/upload-with-window'
import { BatchConversion } from './BatchConversion'
import { type ConversionKind, checkConversionFiles, conversionAccept } from './conversion-files'
import './model-config.css'
import { buildingRoutes } from '../../../contract/building'

type ConversionState =
  | { kind: 'idle' }
  | { kind: 'converting' }
  | { kind: 'succeeded'; datum: ConversionDatum }
  | { kind: 'failed'; message: string }

/** The library choice that adds the result to no project. */
const noProject = 'none'

/**
 * Model config → format conversion (SPEC §2, §5, §8): one DAE or FBX file, or a glTF/GLB set,
 * converted to SBM on the server with real upload progress. On success it says 'model render
 * prepared, format conversion succeeded' and offers "Render", which opens the SBM in a preview
 * scene; on failure it shows the server's reason and no render option. Optionally the result
 * joins a building project's model library.
 */
export function ModelConversionPage(_props: Partial<PageProps>) {
  const { t, i18n } = useLingui()
  const [conversionKind, setConversionKind] = useState<ConversionKind>('daeOrFbx')
  const [files, setFiles] = useState<File[]>([])
  const [state, setState] = useState<ConversionState>({ kind: 'idle' })
  const [isRendering, setRendering] = useState(false)
  const [projects, setProjects] = useState<Project[]>([])
  const [targetProjectId, setTargetProjectId] = useState<string>(noProject)
  const inputRef = useRef<HTMLInputElement>(null)
  const kindGroup = useId()

  useEffect(() => {
    const controller = new AbortController()
    findProjects({ kind: 'building', pageSize: 100 }, controller.signal).then(
      (page) => setProjects(page.list),
      // the library choice is optional: without the list the page still converts
      () => undefined,
    )
    return () => controller.abort()
  }, [])

  function chooseKind(kind: ConversionKind) {
    setConversionKind(kind)
    setFiles([])
    setState({ kind: 'idle' })
    setRendering(false)
  }

  function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    setFiles(Array.from(event.target.files ?? []))
    event.target.value = ''
    setState({ kind: 'idle' })
    setRendering(false)
  }

  async function convert() {
    const check = checkConversionFiles(conversionKind, files)
    if (!check.isValid) {
      toast.warning(i18n._(check.reason))
      return
    }
    const projectId = targetProjectId === noProject ? undefined : targetProjectId
    setState({ kind: 'converting' })
    setRendering(false)
    try {
      const [datum] = await uploadWithWindow<ConversionDatum>({
        files: check.files,
        route:
          conversionKind === 'gltf' ? buildingRoutes.uploadGltfForSbm : buildingRoutes.convertSbm,
        fields:
          conversionKind === 'gltf'
            ? { option_type: 'add', ...(projectId ? { project_id: projectId } : {}) }
            : projectId
              ? { project_id: projectId }
              : {},
        fileField: conversionKind === 'gltf' ? 'glbf_arr' : 'file',
        purpose: 'model',
        isOneRequest: conversionKind === 'gltf',
        sendUploadId: (uploadId) =>
          conversionKind === 'gltf'
            ? convertGltfToSbm({ uploadId }, projectId ? { projectId } : {})
            : convertDaeOrFbxToSbm({ uploadId }, projectId ? { projectId } : {}),
      })
      if (!datum) throw new Error('the conversion answered nothing')
      setState({ kind: 'succeeded', datum })
      toast.success(t`model render prepared, format conversion succeeded`)
    } catch (error) {
      // SPEC §8: the server's reason is shown and the render option stays hidden.
      setState({ kind: 'failed', message: errorText(error) })
    }
  }

  const projectOptions = [
    { value: noProject, label: t`No project (convert only)` },
    ...projects.map((project) => ({ value: project.id, label: project.name })),
  ]
  const chosenNames = files.map((file) => file.name).join(', ')

  return (
    <section className="ts-model-config" data-testid="page-modelConfigConversion">
      <h1 className="ts-page-title">
        <Trans>Format conversion</Trans>
      </h1>
      <p className="ts-model-config__lead">
        <Trans>
          Convert a DAE or FBX model, or a glTF/GLB model, to the SBM format the building scenes
          load.
        </Trans>
      </p>

      <fieldset className="ts-model-config__kinds">
        <legend>
          <Trans>Source format</Trans>
        </legend>
        <label>
          <input
            type="radio"
            name={kindGroup}
            checked={conversionKind === 'daeOrFbx'}
            onChange={() => chooseKind('daeOrFbx')}
          />
          <Trans>DAE or FBX (one file)</Trans>
        </label>
        <label>
          <input
            type="radio"
            name={kindGroup}
            checked={conversionKind === 'gltf'}
            onChange={() => chooseKind('gltf')}
          />
          <Trans>glTF or GLB (a .glb, or a .gltf with its files)</Trans>
        </label>
      </fieldset>

      <div className="ts-model-config__row">
        <Button variant="secondary" onClick={() => inputRef.current?.click()}>
          <Trans>Choose file</Trans>
        </Button>
        <input
          ref={inputRef}
          type="file"
          hidden
          multiple={conversionKind === 'gltf'}
          accept={conversionAccept[conversionKind]}
          aria-label={t`Model file to convert`}
          data-testid="conversion-file-input"
          onChange={handleFiles}
        />
        <span className="ts-model-config__files" data-testid="conversion-files">
          {files.length === 0 ? <Trans>No file chosen</Trans> : chosenNames}
        </span>
      </div>

      <div className="ts-model-config__row">
        <Select
          label={<Trans>Add the result to a project's model library</Trans>}
          options={projectOptions}
          value={targetProjectId}
          onValueChange={setTargetProjectId}
        />
      </div>

      <div className="ts-model-config__row">
        <Button
          onClick={() => void convert()}
          isBusy={state.kind === 'converting'}
          disabled={files.length === 0}
        >
          <Trans>Convert</Trans>
        </Button>
        {state.kind === 'converting' && <Spinner label={t`Converting`} />}
      </div>

      {state.kind === 'failed' && (
        <div data-testid="conversion-error">
          <ErrorState title={<Trans>Conversion failed</Trans>} message={state.message} />
        </div>
      )}

      {state.kind === 'succeeded' && (
        <ConversionResult
          datum={state.datum}
          projects={projects}
          isRendering={isRendering}
          onRender={() => setRendering(true)}
        />
      )}

      <BatchConversion />
    </section>
  )
}

function ConversionResult({
  datum,
  projects,
  isRendering,
  onRender,
}: {
  datum: ConversionDatum
  projects: readonly Project[]
  isRendering: boolean
  onRender: () => void
}) {
  const sizeText = formatFileSize(datum.sizeBytes)
  const triangleCount = datum.triangleCount
  const sbmName = datum.downloadName
  return (
    <section className="ts-boxed ts-model-config__result" data-testid="conversion-result">
      <p className="ts-model-config__success" role="status">
        <Trans>model render prepared, format conversion succeeded</Trans>
      </p>
      <p className="ts-model-config__summary">
        <Trans>
          {sbmName}: {sizeText}, {triangleCount} triangles
        </Trans>
      </p>
      {datum.warnings.length > 0 && (
        <ul className="ts-warning-list">
          {datum.warnings.map((warning) => (
            // rendered here, not stored as text: a language switch re-renders it
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
      {datum.model && (
        <p className="ts-model-config__summary">
          <Trans>Added to the project's model library.</Trans>
        </p>
      )}
      <div className="ts-model-config__row">
        <Button onClick={onRender} disabled={isRendering}>
          <Trans>Render</Trans>
        </Button>
        <a
          className="ts-model-config__download"
          href={convertedModelPath(datum)}
          download={datum.downloadName}
        >
          <Trans>Download SBM</Trans>
        </a>
      </div>
      <AddToProject datum={datum} projects={projects} />
      {isRendering && <ConversionPreview datum={datum} />}
    </section>
  )
}

/**
 * Adds the converted model to a space project's model library (SPEC §7
 * `createModelByCategory`): one conversion serves as many projects as need the model.
 */
function AddToProject({
  datum,
  projects,
}: {
  datum: ConversionDatum
  projects: readonly Project[]
}) {
  const { t } = useLingui()
  const [projectId, setProjectId] = useState(projects[0]?.id ?? '')
  const [isAdding, setIsAdding] = useState(false)
  if (projects.length === 0) return null

  async function add() {
    setIsAdding(true)
    try {
      await createModelByCategory({ project_id: projectId, sbm_uuid: datum.uuid })
      const name = projects.find((project) => project.id === projectId)?.name ?? ''
      toast.success(t`Added to the model library of “${name}”.`)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsAdding(false)
    }
  }

  return (
    <div className="ts-model-config__row" data-testid="conversion-add-to-project">
      <Select
        label={<Trans>Add to a space project's model library</Trans>}
        options={projects.map((project) => ({ value: project.id, label: project.name }))}
        value={projectId}
        onValueChange={setProjectId}
      />
      <Button onClick={() => void add()} isBusy={isAdding} disabled={!projectId}>
        <Trans>Add</Trans>
      </Button>
    </div>
  )
}

/**
 * A scene of its own with the converted model alone, opened through the engine exactly as a
 * building project opens its models, so what renders here renders in a project.
 */
function ConversionPreview({ datum }: { datum: ConversionDatum }) {
  const { t } = useLingui()
  const engine = useOwnedEngine()
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    if (!engine) return
    let isCurrent = true
    const url = convertedModelPath(datum)
    engine
      .run('building.open', {
        description: {
          projectId: `conversion-${datum.uuid}`,
          name: datum.sbmName,
          shellModelId: null,
          floors: [],
          models: [
            {
              id: datum.uuid,
              name: datum.sbmName,
              role: 'model',
              floorId: null,
              url,
              sizeBytes: datum.sizeBytes,
            },
          ],
        },
      })
      .then(
        (result) => {
          if (!isCurrent) return
          if (result.failedModelIds.length > 0) {
            const model = engine
              .getSnapshot()
              .building.models.find((candidate) => candidate.id === datum.uuid)
            setFailure(model?.errorMessage ?? t`The model could not be loaded.`)
          }
        },
        (error: unknown) => {
          if (isCurrent) setFailure(reasonText(error))
        },
      )
    return () => {
      isCurrent = false
    }
  }, [engine, datum, t])

  if (!engine) return <Spinner label={t`Opening the preview`} />
  return (
    <EngineProvider engine={engine}>
      <div className="ts-model-config__preview" data-testid="conversion-preview">
        <BuildingCanvas onPick={() => undefined} label={t`Converted model preview`} />
      </div>
      {failure && <ErrorState message={failure} />}
    </EngineProvider>
  )
}
