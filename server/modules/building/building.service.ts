import { type BuildingDependencies, createBuildingContext } from './building-context'
import { type BuildingLifecycle, createBuildingLifecycle } from './building-lifecycle'
import { createFloorUploads, type FloorUploads } from './floor-uploads'
import { createModelConversions, type ModelConversions } from './model-conversions'
import { createModelDownloads, type ModelDownloads } from './model-downloads'
import { createModelLibrary, type ModelLibrary } from './model-library'
import { createStructureExtend, type StructureExtend } from './structure-extend'
import { createStructureInstall, type StructureInstall } from './structure-install'
import { createStructureUploads, type StructureUploads } from './structure-uploads'

export type { IncomingFile } from './building-context'
export { modelFileUrl, structureFileUrl, toBuildingModel } from './building-views'
export type { ConversionKind } from './model-conversions'
export type { StructureExtension } from './structure-extend'
export type { StructureModel } from './structure-install'
export type { FileReader, ServedModelFile } from './model-downloads'

/**
 * A project's building models and floors (SPEC §2 model library, §5 model files, §7 uploads):
 * uploads checked before any row changes, rows written in one transaction after the bytes are
 * stored, and bytes removed once no row uses them. Its routes validate every body and query
 * with the contract's schemas (contract/building.ts) and hand the parsed input in. One use case
 * a file: floor uploads, the shell and structure upload, the model library, conversions,
 * downloads and the project lifecycle, over the context they share (building-context.ts).
 */
export interface BuildingService
  extends FloorUploads,
    StructureUploads,
    StructureInstall,
    StructureExtend,
    ModelLibrary,
    ModelConversions,
    ModelDownloads,
    BuildingLifecycle {
  /** Removes the bytes of these files unless a row still uses them. */
  releaseUnused(sha256s: readonly string[]): Promise<void>
}

/** Builds the building service. */
export function createBuildingService(dependencies: BuildingDependencies): BuildingService {
  const context = createBuildingContext(dependencies)
  return {
    ...createFloorUploads(context),
    ...createStructureUploads(context),
    ...createStructureInstall(context),
    ...createStructureExtend(context),
    ...createModelLibrary(context),
    ...createModelConversions(context),
    ...createModelDownloads(context),
    ...createBuildingLifecycle(context),
    releaseUnused: context.releaseUnused,
  }
}
