import { createReadStream, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { BuiltNavigationGraph } from '../workers/indoor-route/build-navigation-graph'
import { isGmlError } from '../workers/indoor-route/gml-errors'
import { loadIndoorGmlStream } from '../workers/indoor-route/load-indoor-gml'

/**
 * Shared plumbing of `npm run gml:route` and `npm run gml:info`: resolve the file against the
 * directory npm was started from (npm itself runs scripts from the package root), stream it
 * through the same parser the worker uses, and turn failures into one readable stderr line.
 */
export async function loadGmlFile(path: string): Promise<BuiltNavigationGraph> {
  const absolutePath = resolve(process.env.INIT_CWD ?? process.cwd(), path)
  let sizeBytes: number
  try {
    sizeBytes = statSync(absolutePath).size
  } catch {
    throw new CliError(`cannot read '${path}': no such file`)
  }
  return loadIndoorGmlStream(createReadStream(absolutePath, { highWaterMark: 1 << 20 }), {
    totalSize: sizeBytes,
  })
}

/** A failure worth one line on stderr and a non-zero exit, without a stack trace. */
export class CliError extends Error {
  readonly exitCode: number

  constructor(message: string, exitCode = 1) {
    super(message)
    this.exitCode = exitCode
  }
}

/** Runs a CLI body: prints its failure on stderr and sets the exit code. */
export async function runCli(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body()
  } catch (error) {
    if (isGmlError(error)) console.error(`${name}: ${error.message} [${error.code}]`)
    else if (error instanceof CliError) console.error(`${name}: ${error.message}`)
    else console.error(`${name}: unexpected failure:`, error)
    process.exitCode = error instanceof CliError ? error.exitCode : 1
  }
}
