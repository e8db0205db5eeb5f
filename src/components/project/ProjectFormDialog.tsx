import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useState } from 'react'
import { projectLimits } from '../../../contract/project'
import { recommendedCoverPixels } from '../../../contract/files'
import {
  addProject,
  type Project,
  type ProjectKind,
  updateProject,
  uploadProjectCover,
} from '../../api/project'
import { Button, Dialog, FormWrapper, ImagePicker, TextArea, TextField, toast } from '../../ui'
import { errorText } from '../feedback/error-text'
import type { MapPickerServices } from '../map-picker/MapPickerDialog'
import { RegionPicker } from '../region-picker/RegionPicker'
import type { LoadRegionChildren } from '../region-picker/region-path'
import { createCoverThumbnail } from './cover-thumbnail'
import {
  applyMapPick,
  initialFormValues,
  type ProjectFormMode,
  type ProjectFormValues,
  projectFormProblem,
} from './project-form'
import './project.css'

/** The calls the form makes; tests pass their own. */
export interface ProjectFormServices {
  addProject: typeof addProject
  updateProject: typeof updateProject
  uploadProjectCover: typeof uploadProjectCover
  createCoverThumbnail: typeof createCoverThumbnail
  /** The map picker's search and reverse geocoding; defaults to the server's. */
  mapPicker?: MapPickerServices
  /** The region cascade's data; defaults to the server's. */
  loadRegionChildren?: LoadRegionChildren
}

// The picker brings MapLibre (~1 MB): loaded when the user first opens it, not with the list.
const MapPickerDialog = lazy(async () => ({
  default: (await import('../map-picker/MapPickerDialog')).MapPickerDialog,
}))

const defaultServices: ProjectFormServices = {
  addProject,
  updateProject,
  uploadProjectCover,
  createCoverThumbnail,
}

/** Props of {@link ProjectFormDialog}. */
export interface ProjectFormDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  mode: ProjectFormMode
  /** The kind of a new project (the list whose Create button opened the form). */
  kind: ProjectKind
  /** The project to edit (edit mode). */
  project: Project | null
  /** Told about the saved project, e.g. to reload the list. */
  onSaved: (project: Project) => void
  services?: ProjectFormServices
}

/**
 * Create/edit project popup (SPEC §2, §4, §5): name, cover (≤ 2 MB, 2048 × 2048 recommended),
 * an address picked on the map, the region, and a description. The title and the submit label
 * follow the mode.
 */
export function ProjectFormDialog(props: ProjectFormDialogProps) {
  const { isOpen, onOpenChange, mode } = props
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={mode === 'create' ? <Trans>Create project</Trans> : <Trans>Edit project</Trans>}
      widthPx={640}
    >
      {/* keyed so each opening starts from the project as it is now */}
      {isOpen && <ProjectForm key={props.project?.id ?? `new-${props.kind}`} {...props} />}
    </Dialog>
  )
}

function ProjectForm({
  mode,
  kind,
  project,
  onOpenChange,
  onSaved,
  services = defaultServices,
}: ProjectFormDialogProps) {
  const { t } = useLingui()
  const [values, setValues] = useState<ProjectFormValues>(() => initialFormValues(kind, project))
  const [isPickerOpen, setIsPickerOpen] = useState(false)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const set = <Key extends keyof ProjectFormValues>(key: Key, value: ProjectFormValues[Key]) =>
    setValues((current) => ({ ...current, [key]: value }))

  async function save() {
    setHasTriedSubmit(true)
    const problem = projectFormProblem(values)
    if (problem === 'incomplete') {
      toast.warning(t`Please fill out the form.`)
      return
    }
    if (problem === 'noLocation' || !values.location) {
      toast.warning(t`Please select an address on the map first.`)
      return
    }
    try {
      let coverUuid = values.coverUuid
      if (values.coverFile) {
        const thumbnail = await services.createCoverThumbnail(values.coverFile)
        const uploaded = await services.uploadProjectCover(
          values.coverFile,
          thumbnail,
          mode === 'edit' ? project?.id : undefined,
        )
        coverUuid = uploaded.uuid
        setValues((current) => ({ ...current, coverUuid: uploaded.uuid, coverFile: null }))
      }
      const fields = {
        name: values.name.trim(),
        detailedaddress: values.detailedaddress.trim(),
        description: values.description.trim(),
        prewiewpath_uuid: coverUuid!,
        project_center: values.location,
        area_id: values.areaId ?? '',
      }
      const saved =
        mode === 'create'
          ? await services.addProject({ kind: values.kind, ...fields })
          : await services.updateProject({ id: project!.id, ...fields })
      toast.success(mode === 'create' ? t`Added successfully.` : t`Modified successfully.`)
      onSaved(saved)
      onOpenChange(false)
    } catch (error) {
      const reason = errorText(error)
      toast.error(mode === 'create' ? t`Failed to add. ${reason}` : t`Failed to modify. ${reason}`)
    }
  }

  const missing = (text: string) => (hasTriedSubmit && !text.trim() ? t`Required` : undefined)
  const { width, height } = recommendedCoverPixels
  return (
    <>
      <FormWrapper
        onSubmit={save}
        onCancel={() => onOpenChange(false)}
        submitLabel={mode === 'create' ? <Trans>Save</Trans> : <Trans>Modify</Trans>}
      >
        <TextField
          label={t`Project name`}
          value={values.name}
          maxLength={projectLimits.nameMaxLength}
          onChange={(event) => set('name', event.target.value)}
          error={missing(values.name)}
          required
          data-testid="project-form-name"
        />
        <ImagePicker
          label={
            <>
              <Trans>Cover image</Trans>
              <span className="ts-field__required" aria-hidden="true">
                *
              </span>
            </>
          }
          currentImageUrl={values.coverUrl ?? undefined}
          onPick={(file) => setValues((current) => ({ ...current, coverFile: file }))}
          onReject={(reason) => {
            if (reason === 'size') toast.warning(t`Image size is over 2MB!`)
          }}
          hint={t`JPG or PNG under 2 MB; recommended size ${width} × ${height} px.`}
        />
        <div className="ts-project-form__address">
          <TextField
            label={t`Detailed address`}
            value={values.detailedaddress}
            maxLength={projectLimits.detailedAddressMaxLength}
            onChange={(event) => set('detailedaddress', event.target.value)}
            error={missing(values.detailedaddress)}
            hint={
              values.location
                ? t`Location: ${values.location.lat.toFixed(5)}, ${values.location.lng.toFixed(5)}`
                : t`Pick the location on the map.`
            }
            required
            data-testid="project-form-address"
          />
          <Button onClick={() => setIsPickerOpen(true)} data-testid="project-form-pick">
            <Trans>Pick on map</Trans>
          </Button>
        </div>
        <RegionPicker
          label={<Trans>Region</Trans>}
          value={values.areaId}
          onChange={(path) => set('areaId', path.at(-1)?.codeid ?? null)}
          {...(services.loadRegionChildren ? { loadChildren: services.loadRegionChildren } : {})}
        />
        <TextArea
          label={t`Description`}
          value={values.description}
          maxLength={projectLimits.descriptionMaxLength}
          onValueChange={(description) => set('description', description)}
          error={missing(values.description)}
          required
        />
      </FormWrapper>
      {isPickerOpen && (
        <Suspense fallback={null}>
          <MapPickerDialog
            isOpen={isPickerOpen}
            onOpenChange={setIsPickerOpen}
            initial={
              values.location
                ? { location: values.location, address: values.detailedaddress }
                : null
            }
            onConfirm={(pick) => setValues((current) => applyMapPick(current, pick))}
            {...(services.mapPicker ? { services: services.mapPicker } : {})}
          />
        </Suspense>
      )}
    </>
  )
}
