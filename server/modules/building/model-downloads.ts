import { AppError } from '../../http/app-error'
import type { ServedStoredFile } from '../../plugins/storage'
import type { ProjectCaller } from '../projects/projects.service'
import type { BuildingContext } from './building-context'
import {
  baseNameOf,
  modelGrantResource,
  previewGrantResource,
  structureGrantResource,
} from './building-views'

/** Who reads a file: a project caller, or the holder of a grant the server handed out. */
export type FileReader = ProjectCaller | { grant: string }

/** A stored model file to send (server/modules/tilesets/send-file.ts `sendStoredFile`). */
export type ServedModelFile = ServedStoredFile

/** The serving of model files, structure manifests and conversion results. */
export interface ModelDownloads {
  openModelFile(reader: FileReader, modelId: string, sha256: string): Promise<ServedModelFile>
  /** A model's thumbnail PNG, read by the same rules as the model's file. */
  openModelPreview(reader: FileReader, modelId: string, sha256: string): Promise<ServedModelFile>
  openStructureFile(reader: FileReader, projectId: string, sha256: string): Promise<ServedModelFile>
  openConvertedFile(convertedId: string): Promise<ServedModelFile>
}

/** Builds the downloads over the shared context. */
export function createModelDownloads(context: BuildingContext): ModelDownloads {
  const { repository, access } = context

  /** A grant for exactly this file, or a caller who may read the project. */
  const checkReader = async (reader: FileReader, projectId: string, resource: string) => {
    if ('grant' in reader) {
      if (!(await access.checkFileGrant(resource, reader.grant))) {
        throw new AppError('forbidden', 'file.grantRefused')
      }
      return
    }
    await access.requireReadable(reader, projectId)
  }

  const served = (sha256: string, contentType: string): ServedModelFile => ({ sha256, contentType })

  return {
    async openModelFile(reader, modelId, sha256) {
      const model = await repository.findModel(modelId)
      if (!model || model.sha256 !== sha256) throw new AppError('notFound', 'file.notFound')
      await checkReader(reader, model.project_id, modelGrantResource(model))
      return served(model.sha256, 'model/gltf-binary')
    },

    async openModelPreview(reader, modelId, sha256) {
      const model = await repository.findModel(modelId)
      if (!model || model.preview_sha256 !== sha256) throw new AppError('notFound', 'file.notFound')
      await checkReader(reader, model.project_id, previewGrantResource(model.id, sha256))
      return served(sha256, 'image/png')
    },

    async openStructureFile(reader, projectId, sha256) {
      const structure = await repository.findStructure(projectId)
      if (!structure || structure.sha256 !== sha256) {
        throw new AppError('notFound', 'file.notFound')
      }
      await checkReader(reader, projectId, structureGrantResource(projectId, sha256))
      return served(structure.sha256, 'application/json')
    },

    async openConvertedFile(convertedId) {
      const converted = await repository.findConverted(convertedId)
      if (!converted) throw new AppError('notFound', 'file.notFound')
      return {
        ...served(converted.sha256, 'model/gltf-binary'),
        downloadName: `${baseNameOf(converted.source_name)}.sbm`,
      }
    },
  }
}
