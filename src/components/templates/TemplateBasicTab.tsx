import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { type CategoryNode, type Template, templateLimits } from '../../api/templates'
import { Button, FormWrapper, ImagePicker, TextField, toast } from '../../ui'
import type { ServerMessageItem } from '../../../contract/common'
import { errorText, showErrorToast } from '../feedback/error-text'
import { serverMessageText } from '../feedback/server-messages'
import { CategoryCascade } from './CategoryCascade'
import { TemplateLevelsEditor } from './TemplateLevelsEditor'
import {
  basicProblem,
  chooseCategory,
  initialTemplateValues,
  isZipFile,
  type TemplateFormValues,
  type TemplateKind,
  templateFieldsOf,
} from './template-form'
import type { TemplateServices } from './template-services'

/** Props of {@link TemplateBasicTab}. */
export interface TemplateBasicTabProps {
  template: Template | null
  kind: TemplateKind
  templateId: string | null
  tree: readonly CategoryNode[]
  services: TemplateServices
  onSaved: (id: string) => void
}

/** Where the 3D zip upload is. */
type ZipUpload =
  | { state: 'idle' }
  | { state: 'uploading'; percent: number; fileName: string }
  | { state: 'converting'; fileName: string }
  | { state: 'failed'; fileName: string; reason: string }

/**
 * The basic tab: name, encoding, category (its first id decides 2D or 3D), then the icon of a
 * 2D template, the model zip of a 3D one, or the levels of a multi-level one; IoT and shadow-
 * render switches. The first save creates the template (SPEC §4).
 */
export function TemplateBasicTab({
  template,
  kind,
  templateId,
  tree,
  services,
  onSaved,
}: TemplateBasicTabProps) {
  const { t } = useLingui()
  const [values, setValues] = useState<TemplateFormValues>(() =>
    initialTemplateValues(template, kind),
  )
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [isIconUploading, setIsIconUploading] = useState(false)
  const [zip, setZip] = useState<ZipUpload>({ state: 'idle' })
  // what the last conversion said about its model, shown while that model is the template's
  const [modelWarnings, setModelWarnings] = useState<{
    uuid: string
    warnings: readonly ServerMessageItem[]
  } | null>(null)
  const zipInputId = useId()
  const zipInput = useRef<HTMLInputElement>(null)
  const set = <Key extends keyof TemplateFormValues>(key: Key, value: TemplateFormValues[Key]) =>
    setValues((current) => ({ ...current, [key]: value }))

  async function takeIcon(file: File) {
    setIsIconUploading(true)
    try {
      const image = await services.uploadIcon(file)
      set('iconpath', filePathOf(image.rootPath, image.jpgName))
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsIconUploading(false)
    }
  }

  async function takeZip(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    if (!isZipFile(file)) {
      toast.warning(t`Only zip can be uploaded.`)
      return
    }
    setZip({ state: 'uploading', percent: 0, fileName: file.name })
    try {
      const answer = await services.upload3dZip(file, (sentBytes, totalBytes) => {
        const percent = totalBytes > 0 ? Math.round((sentBytes / totalBytes) * 100) : 0
        // every byte is in: the server converts the model now
        setZip(
          percent >= 100
            ? { state: 'converting', fileName: file.name }
            : { state: 'uploading', percent, fileName: file.name },
        )
      })
      setValues((current) => ({
        ...current,
        category_zip_uuid: answer.uuid,
        file_path: answer.rootPath,
        jpg_name: answer.jpgName,
        xml_name: answer.xmlName,
        glbf_name: answer.sbmName,
        // a 3D template's picture is its model's preview, rendered by the server
        iconpath: filePathOf(answer.rootPath, answer.jpgName),
      }))
      setZip({ state: 'idle' })
      setModelWarnings({ uuid: answer.uuid, warnings: answer.warnings })
      toast.success(t`Model render prepared, format conversion succeeded.`)
    } catch (error) {
      setZip({ state: 'failed', fileName: file.name, reason: errorText(error) })
      showErrorToast(error)
    }
  }

  async function save() {
    setHasTriedSubmit(true)
    if (basicProblem(values)) {
      toast.warning(t`Please fill in the basic attributes.`)
      return
    }
    const fields = templateFieldsOf(values)
    try {
      if (templateId === null) {
        const created =
          values.kind === 'multiLevel'
            ? await services.createMultiLevelTemplate({
                ...fields,
                projectInfoAllCustoms: fields.projectInfoAllCustoms ?? [],
              })
            : await services.createTemplate(fields)
        toast.success(t`Added successfully.`)
        onSaved(created.id)
      } else {
        await services.updateTemplate({ ...fields, id: templateId })
        toast.success(t`Modified successfully.`)
        onSaved(templateId)
      }
    } catch (error) {
      const reason = errorText(error)
      toast.error(
        templateId === null ? t`Failed to add. ${reason}` : t`Failed to modify. ${reason}`,
      )
    }
  }

  const missing = (isEmpty: boolean) => (hasTriedSubmit && isEmpty ? t`Required` : undefined)
  const previewPath = values.jpg_name ? filePathOf(values.file_path, values.jpg_name) : null
  const isBusy = isIconUploading || zip.state === 'uploading' || zip.state === 'converting'
  return (
    <FormWrapper
      onSubmit={save}
      submitLabel={templateId === null ? <Trans>Save</Trans> : <Trans>Modify</Trans>}
      isBusy={isBusy}
    >
      <p className="ts-template-basic__kind" data-testid="template-kind">
        {values.kind === 'multiLevel' ? (
          <Trans>Multi-level template</Trans>
        ) : (
          <Trans>Simple template</Trans>
        )}
        {' · '}
        <span data-testid="template-type">{values.type}</span>
      </p>
      <TextField
        label={t`Template name`}
        value={values.name}
        maxLength={templateLimits.templateNameMaxLength}
        onChange={(event) => set('name', event.target.value)}
        error={missing(!values.name.trim())}
        required
        data-testid="template-name"
      />
      <TextField
        label={t`Encoding`}
        value={values.poicategory_code}
        maxLength={templateLimits.codeMaxLength}
        onChange={(event) => set('poicategory_code', event.target.value)}
        error={missing(!values.poicategory_code.trim())}
        hint={t`Unique among your templates.`}
        required
        data-testid="template-code"
      />
      <CategoryCascade
        label={<Trans>Category</Trans>}
        tree={tree}
        value={values.categoryPath}
        onChange={(path) => setValues((current) => chooseCategory(current, path))}
        error={missing(values.categoryPath.length === 0)}
        required
      />
      {values.kind === 'multiLevel' ? (
        <TemplateLevelsEditor levels={values.levels} onChange={(levels) => set('levels', levels)} />
      ) : values.type === '2D' ? (
        <div className="ts-template-basic__icon" data-testid="template-icon">
          <ImagePicker
            // a new category clears the icon, so the picker starts over too
            key={values.categoryPath.join(',')}
            label={
              <>
                <Trans>Icon</Trans>
                <span className="ts-field__required" aria-hidden="true">
                  *
                </span>
              </>
            }
            currentImageUrl={values.iconpath || undefined}
            onPick={(file) => void takeIcon(file)}
            onReject={(reason) => {
              if (reason === 'size') toast.warning(t`Image size is over 2MB!`)
              else toast.warning(t`The icon must be a JPG or PNG image.`)
            }}
            hint={
              isIconUploading
                ? t`Uploading the icon…`
                : values.iconpath
                  ? t`Icon uploaded.`
                  : t`JPG or PNG under 2 MB.`
            }
          />
          {hasTriedSubmit && !values.iconpath && (
            <p className="ts-field__message ts-field__message--error" role="alert">
              <Trans>Choose an icon.</Trans>
            </p>
          )}
        </div>
      ) : (
        <div className="ts-template-basic__model" data-testid="template-model">
          <span className="ts-field__label">
            <Trans>3D model (zip)</Trans>
            <span className="ts-field__required" aria-hidden="true">
              *
            </span>
          </span>
          <div className="ts-template-basic__model-row">
            {previewPath ? (
              <img
                className="ts-template-basic__preview"
                src={previewPath}
                alt={t`Model preview`}
                data-testid="template-model-preview"
              />
            ) : (
              <div className="ts-template-basic__preview ts-template-basic__preview--empty">
                <Trans>No model yet</Trans>
              </div>
            )}
            <div className="ts-template-basic__model-actions">
              <input
                ref={zipInput}
                id={zipInputId}
                type="file"
                accept=".zip,application/zip,application/x-zip-compressed"
                className="ts-visually-hidden"
                onChange={(event) => void takeZip(event)}
                data-testid="template-zip-input"
              />
              <Button onClick={() => zipInput.current?.click()} disabled={isBusy}>
                {previewPath ? <Trans>Replace the zip</Trans> : <Trans>Upload a zip</Trans>}
              </Button>
              <p className="ts-field__hint">
                <Trans>A zip holding one glTF, GLB, DAE or FBX model with its textures.</Trans>
              </p>
              <ZipProgress upload={zip} />
            </div>
          </div>
          {modelWarnings !== null && modelWarnings.uuid === values.category_zip_uuid && (
            <ModelWarnings warnings={modelWarnings.warnings} />
          )}
          {hasTriedSubmit && !values.category_zip_uuid && (
            <p className="ts-field__message ts-field__message--error" role="alert">
              <Trans>Upload the model zip.</Trans>
            </p>
          )}
        </div>
      )}
      <div className="ts-template-basic__switches">
        <label className="ts-checkbox">
          <input
            type="checkbox"
            checked={values.is_iot_device}
            onChange={(event) => set('is_iot_device', event.target.checked)}
          />
          <Trans>IoT device</Trans>
        </label>
        <label className="ts-checkbox">
          <input
            type="checkbox"
            checked={values.use_shadow_editor_render}
            onChange={(event) => set('use_shadow_editor_render', event.target.checked)}
          />
          <Trans>Use the shadow-render editor</Trans>
        </label>
      </div>
    </FormWrapper>
  )
}

/** A conversion's warnings, rendered from their catalogue ids (a language switch re-renders). */
function ModelWarnings({ warnings }: { warnings: readonly ServerMessageItem[] }) {
  if (warnings.length === 0) return null
  return (
    <ul className="ts-template-basic__warnings" data-testid="template-model-warnings">
      {warnings.map((warning) => (
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
  )
}

function ZipProgress({ upload }: { upload: ZipUpload }) {
  const { t } = useLingui()
  if (upload.state === 'idle') return null
  if (upload.state === 'failed') {
    return (
      <p className="ts-field__message ts-field__message--error" role="alert">
        {upload.fileName}: {upload.reason}
      </p>
    )
  }
  const percent = upload.state === 'uploading' ? upload.percent : 100
  const fileName = upload.fileName
  return (
    <div className="ts-template-basic__progress" role="status" data-testid="template-zip-progress">
      <progress max={100} value={percent} aria-label={t`Upload progress`} />
      <span>
        {upload.state === 'uploading' ? (
          <Trans>
            Uploading {fileName}: {percent}%
          </Trans>
        ) : (
          <Trans>Converting the model…</Trans>
        )}
      </span>
    </div>
  )
}

/** A served file's address from the folder and name an upload answered. */
function filePathOf(rootPath: string, name: string): string {
  return `${rootPath.endsWith('/') ? rootPath : `${rootPath}/`}${name}`
}
