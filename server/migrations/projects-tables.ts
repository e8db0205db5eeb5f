import type { Generated } from 'kysely'

/**
 * Row types of the tables of migration 0002-projects, in the conventions of ./tables.ts (text
 * UUID ids, ISO text timestamps, 0/1 booleans). Repositories reach them with
 * the app's `Database` (they are part of `Tables`).
 */
export interface ProjectTables {
  projects: ProjectsTable
  project_tokens: ProjectTokensTable
  uploaded_files: UploadedFilesTable
  file_references: FileReferencesTable
}

/** SPEC §3 "Project", plus its kind, owner, paid and case flags. */
export interface ProjectsTable {
  id: string
  kind: 'city' | 'building'
  name: string
  /** Deepest division code of the region cascade, or null. */
  area_id: string | null
  area_name: string | null
  detailedaddress: string
  use_shadow_editor_render: Generated<number>
  /** The cover: an `uploaded_files.id`, or null. */
  prewiewpath_uuid: string | null
  description: string
  gis_width: Generated<number>
  gis_height: Generated<number>
  tile_radius: Generated<number>
  title_level: Generated<number>
  /** JSON text of `[x, y]` tile indexes, or null. */
  tile_coordinates: string | null
  project_center_lng: number | null
  project_center_lat: number | null
  /**
   * The placement its anchors solved (0027): degrees clockwise from north of the model's +y
   * axis, and model metres to earth metres; null until placed by anchors.
   */
  location_heading: number | null
  location_scale: number | null
  shell_json_path: string | null
  owner_id: string
  is_paid: Generated<number>
  is_case: Generated<number>
  created_at: string
  updated_at: string
}

/** Project tokens (decisions.md): only their SHA-256 is stored; revocable, with an expiry. */
export interface ProjectTokensTable {
  id: string
  project_id: string
  token_hash: string
  created_by: string | null
  created_at: string
  expires_at: string
  revoked_at: string | null
}

/**
 * One row per accepted upload. The bytes live in the content-addressed file store under
 * `sha256`; several rows may share bytes. A row lives while a `file_references` row names it
 * (or, unreferenced, for a grace period so a form can attach a fresh upload).
 */
export interface UploadedFilesTable {
  id: string
  sha256: string
  size_bytes: number
  content_type: string
  /** 'jpg' or 'png': the served name is `<id>.<extension>`. */
  extension: string
  original_name: string
  /** The list thumbnail's bytes in the file store, or null to serve the image itself. */
  thumbnail_sha256: string | null
  owner_id: string | null
  /** The project the upload was made for (edit form), so deleting the project removes it. */
  project_id: string | null
  /**
   * 'project-cover' uploads come from the project form and are deleted when abandoned
   * (unreferenced after a grace period); plain 'image' uploads (avatars, icons) are kept until
   * released, as their users do not record references yet.
   */
  purpose: Generated<'image' | 'project-cover'>
  created_at: string
}

/**
 * Who uses an uploaded file: `holder` names the user of it, e.g. `project:<id>` for a project's
 * cover (other areas may hold files for a project under the same holder, so deleting the
 * project releases them too). Copying a project adds a
 * reference to the same file (no bytes copied); deleting removes it, and a file nobody
 * references any more is deleted with its bytes (unless other rows share them).
 */
export interface FileReferencesTable {
  file_id: string
  holder: string
  created_at: string
}
