/**
 * `npm run sbm:convert -- <input.glb|.gltf|.dae|.fbx> <output.sbm> [options]`
 *
 * Converts a model to SBM with the same converter the server uses. Files the model refers to
 * (a .gltf's .bin and textures, a DAE's or FBX's textures) are read next to the input. Prints one
 * JSON line (the conversion summary) and exits 0, or prints the reason and exits 1 (2 for usage).
 *
 * Options:
 *   --role shell|floor|model      what the file is in a building (default: model)
 *   --floors '<json>'             floors to record, e.g. '[{"id":"F1","name":"1F","elevation":0}]'
 *   --allow-missing-textures      convert anyway, leaving materials with missing textures plain
 *   --no-compress                 store geometry and BVHs without meshopt compression
 */
import { readFile, writeFile } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ConversionError } from '../server/modules/convert/conversion-error'
import { formatServerMessage } from '../contract/messages'
import { convertModelToSbm } from '../server/modules/convert/convert-model'
import { SBM_ROLES, type SbmFloor, type SbmRole } from '../workers/sbm/sbm-header'

const usage =
  'usage: npm run sbm:convert -- <input.glb|.gltf|.dae|.fbx> <output.sbm> [--role shell|floor|model] [--floors <json>] [--allow-missing-textures] [--no-compress]'

function fail(message: string, exitCode: number): never {
  process.stderr.write(`sbm:convert: ${message}\n`)
  process.exit(exitCode)
}

function parseFloors(text: string): SbmFloor[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    fail('--floors is not JSON', 2)
  }
  if (!Array.isArray(value)) fail('--floors must be a JSON array', 2)
  return value.map((floor: { id?: unknown; name?: unknown; elevation?: unknown }, index) => {
    if (
      typeof floor?.id !== 'string' ||
      typeof floor.name !== 'string' ||
      typeof floor.elevation !== 'number'
    ) {
      fail(`--floors[${index}] needs a string id, a string name and a number elevation`, 2)
    }
    return { id: floor.id, name: floor.name, elevationMeters: floor.elevation }
  })
}

async function main(): Promise<void> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        role: { type: 'string' }
        floors: { type: 'string' }
        'allow-missing-textures': { type: 'boolean' }
        'no-compress': { type: 'boolean' }
      }
      allowPositionals: true
    }>
  >
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        role: { type: 'string' },
        floors: { type: 'string' },
        'allow-missing-textures': { type: 'boolean' },
        'no-compress': { type: 'boolean' },
      },
    })
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`, 2)
  }
  const [inputPath, outputPath, ...extra] = parsed.positionals
  if (!inputPath || !outputPath || extra.length > 0) fail(usage, 2)
  const role = parsed.values.role ?? 'model'
  if (!SBM_ROLES.includes(role as SbmRole)) fail(`--role must be one of ${SBM_ROLES.join(', ')}`, 2)

  const absoluteInput = resolve(inputPath)
  let bytes: Uint8Array
  try {
    bytes = await readFile(absoluteInput)
  } catch (error) {
    fail(`cannot read ${inputPath}: ${(error as NodeJS.ErrnoException).code ?? error}`, 1)
  }
  const folder = dirname(absoluteInput)
  try {
    const { sbm, summary } = await convertModelToSbm(
      {
        fileName: basename(absoluteInput),
        bytes,
        // A local tool: paths may climb out of the input's folder, as the model's author meant.
        readResource: async (relativePath) => {
          try {
            return await readFile(resolve(folder, relativePath))
          } catch {
            return null
          }
        },
      },
      {
        role: role as SbmRole,
        ...(parsed.values.floors ? { floors: parseFloors(parsed.values.floors) } : {}),
        allowMissingTextures: parsed.values['allow-missing-textures'] === true,
        isCompressed: parsed.values['no-compress'] !== true,
      },
    )
    await writeFile(outputPath, sbm)
    const warnings = summary.warnings.map((warning) =>
      formatServerMessage(warning.id, warning.params),
    )
    process.stdout.write(`${JSON.stringify({ output: outputPath, ...summary, warnings })}\n`)
  } catch (error) {
    if (error instanceof ConversionError) fail(error.message, 1)
    fail(`conversion failed: ${(error as Error).message}`, 1)
  }
}

await main()
