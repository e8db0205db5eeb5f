import { posix } from 'node:path'
import {
  type BuildingFloor,
  type BuildingModel,
  buildingModelFilesRoot,
  buildingStructureFilesRoot,
} from '../../../contract/building'
import type { BuildingFloorRow, BuildingModelRow } from './building.repository'

/** The address of a model's bytes; it changes with the file, so it can be cached forever. */
export function modelFileUrl(row: Pick<BuildingModelRow, 'id' | 'sha256'>): string {
  return `${buildingModelFilesRoot}${row.id}/${row.sha256}.sbm`
}

/** The address of a model's thumbnail; like the model file's, it changes with the image. */
export function modelPreviewUrl(modelId: string, previewSha256: string): string {
  return `${buildingModelFilesRoot}${modelId}/${previewSha256}.png`
}

/** The resource a model thumbnail's grant covers. */
export function previewGrantResource(modelId: string, previewSha256: string): string {
  return `preview:${modelId}:${previewSha256}`
}

/** The address of a project's stored structure manifest. */
export function structureFileUrl(projectId: string, sha256: string): string {
  return `${buildingStructureFilesRoot}${projectId}/${sha256}.json`
}

/** The resource a model file's grant covers. */
export function modelGrantResource(row: Pick<BuildingModelRow, 'id' | 'sha256'>): string {
  return `model:${row.id}:${row.sha256}`
}

/** The resource a structure manifest's grant covers. */
export function structureGrantResource(projectId: string, sha256: string): string {
  return `structure:${projectId}:${sha256}`
}

/**
 * The API view of a model row; its URL carries the read grant `grantFor` makes (signed by
 * access/project-access.ts, bound to the reader's project token if any).
 */
export function toBuildingModel(
  row: BuildingModelRow,
  grantFor: (resource: string) => string,
): BuildingModel {
  const hasStoredBvh = row.has_stored_bvh === 1
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    file_name: row.file_name,
    role: row.role,
    floor_id: row.floor_id,
    url: `${modelFileUrl(row)}?grant=${grantFor(modelGrantResource(row))}`,
    size_bytes: Number(row.size_bytes),
    triangle_count: Number(row.triangle_count),
    has_stored_bvh: hasStoredBvh,
    preview_path: row.preview_sha256
      ? `${modelPreviewUrl(row.id, row.preview_sha256)}?grant=${grantFor(
          previewGrantResource(row.id, row.preview_sha256),
        )}`
      : null,
    model_load_hint: hasStoredBvh ? 'storedBvh' : 'buildBvh',
    placement: {
      position: [row.position_x, row.position_y, row.position_z],
      rotationDegrees: [row.rotation_x, row.rotation_y, row.rotation_z],
      scale: [row.scale_x, row.scale_y, row.scale_z],
    },
    is_visible: row.is_visible === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** The API view of a floor row. */
export function toBuildingFloor(row: BuildingFloorRow): BuildingFloor {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    elevation: row.elevation,
    sort_order: row.sort_order,
    floor_key: row.floor_key,
  }
}

/** A file name's extension, lower case, without the dot. */
export function extensionOf(fileName: string): string {
  return posix.extname(fileName).slice(1).toLowerCase()
}

/** A file name without its extension (at most 100 characters): a model's default name. */
export function baseNameOf(fileName: string): string {
  const extension = posix.extname(fileName)
  return (extension ? fileName.slice(0, -extension.length) : fileName).slice(0, 100) || fileName
}
