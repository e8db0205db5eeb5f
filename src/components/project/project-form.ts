import type { Project, ProjectKind } from '../../api/project'
import type { MapPickResult } from '../map-picker/MapPickerDialog'

/** SPEC §4 "Project form": the title and the submit label follow the mode. */
export type ProjectFormMode = 'create' | 'edit'

/** What the create/edit form holds while the user types. */
export interface ProjectFormValues {
  kind: ProjectKind
  name: string
  detailedaddress: string
  description: string
  /** The cover already saved (edit) or uploaded; null until one exists. */
  coverUrl: string | null
  coverUuid: string | null
  /** A newly chosen cover file, uploaded on save. */
  coverFile: File | null
  /** The picked location (SPEC §3 "Map pick result"); fills `project_center`. */
  location: { lat: number; lng: number } | null
  areaId: string | null
}

/** The form's starting values for a mode. */
export function initialFormValues(kind: ProjectKind, project: Project | null): ProjectFormValues {
  if (!project) {
    return {
      kind,
      name: '',
      detailedaddress: '',
      description: '',
      coverUrl: null,
      coverUuid: null,
      coverFile: null,
      location: null,
      areaId: null,
    }
  }
  return {
    kind: project.kind,
    name: project.name,
    detailedaddress: project.detailedaddress,
    description: project.description,
    coverUrl: project.prewiewpath,
    coverUuid: project.prewiewpath_uuid,
    coverFile: null,
    location: project.project_center
      ? { lat: project.project_center.lat, lng: project.project_center.lng }
      : null,
    areaId: project.area_id,
  }
}

/** Why a form cannot be saved yet (SPEC §5 "Project and address"). */
export type ProjectFormProblem = 'incomplete' | 'noLocation'

/**
 * SPEC §5: name, detailed address, cover and description are needed ('Please fill out the
 * form.'), then a location picked on the map ('Please select an address on the map first.').
 */
export function projectFormProblem(values: ProjectFormValues): ProjectFormProblem | null {
  const hasCover = values.coverFile !== null || values.coverUuid !== null
  if (
    !values.name.trim() ||
    !values.detailedaddress.trim() ||
    !values.description.trim() ||
    !hasCover
  ) {
    return 'incomplete'
  }
  if (!values.location) return 'noLocation'
  return null
}

/** A picked address fills the detailed address and the project centre. */
export function applyMapPick(values: ProjectFormValues, pick: MapPickResult): ProjectFormValues {
  return { ...values, detailedaddress: pick.address, location: pick.location }
}
