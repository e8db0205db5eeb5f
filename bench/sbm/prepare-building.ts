import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { NodeIO } from '@gltf-transform/core'
import { convertModelToSbm } from '../../server/modules/convert/convert-model'
import type { ConversionSummary } from '../../server/modules/convert/convert-model'
import { type BuildingRecipe, generateBuilding, storeyHeightMeters } from './generate-building'

/** The generated building as the two files the benchmarks load, and how they were made. */
export interface PreparedBuilding {
  glbPath: string
  sbmPath: string
  glbSizeBytes: number
  sbmSizeBytes: number
  conversion: ConversionSummary
  /** Wall time of the one-off conversion (GLB → SBM with BVHs), for the report. */
  conversionMs: number
}

/**
 * Generates the seeded building as a plain GLB (the anchor's input) and converts it with the
 * product's converter to SBM (ours). Both are kept under dist/bench-data (git-ignored), keyed by
 * the recipe, so later runs only load them.
 */
export async function prepareBuilding(
  recipe: BuildingRecipe,
  log: (line: string) => void = console.log,
): Promise<PreparedBuilding> {
  const folder = fileURLToPath(new URL('../../dist/bench-data/', import.meta.url))
  const stem = `${folder}sbm-building-${recipe.seed}-${recipe.floorCount}-${recipe.targetTriangleCount}`
  const glbPath = `${stem}.glb`
  const sbmPath = `${stem}.sbm`
  const summaryPath = `${stem}.json`
  if (existsSync(glbPath) && existsSync(sbmPath) && existsSync(summaryPath)) {
    const saved = JSON.parse(readFileSync(summaryPath, 'utf8')) as PreparedBuilding
    return { ...saved, glbPath, sbmPath }
  }
  mkdirSync(folder, { recursive: true })
  log('sbm: generating the seeded building (once)…')
  const glb = await new NodeIO().writeBinary(generateBuilding(recipe))
  log(`sbm: converting ${(glb.byteLength / 1e6).toFixed(1)} MB of GLB to SBM…`)
  const startedAtMs = performance.now()
  const { sbm, summary } = await convertModelToSbm(
    { fileName: 'building.glb', bytes: glb, readResource: async () => null },
    {
      role: 'model',
      floors: Array.from({ length: recipe.floorCount }, (_, floor) => ({
        id: `F${floor + 1}`,
        name: `${floor + 1}F`,
        elevationMeters: floor * storeyHeightMeters,
      })),
    },
  )
  const conversionMs = performance.now() - startedAtMs
  writeFileSync(`${glbPath}.partial`, glb)
  writeFileSync(`${sbmPath}.partial`, sbm)
  renameSync(`${glbPath}.partial`, glbPath)
  renameSync(`${sbmPath}.partial`, sbmPath)
  const prepared: PreparedBuilding = {
    glbPath,
    sbmPath,
    glbSizeBytes: glb.byteLength,
    sbmSizeBytes: sbm.byteLength,
    conversion: summary,
    conversionMs,
  }
  writeFileSync(summaryPath, JSON.stringify(prepared, null, 2))
  return prepared
}
