/**
 * `npm run sbm:info -- <file.sbm>`
 *
 * Prints one JSON line describing an SBM file: role, floors, meshes with their triangle counts
 * and whether each has a stored BVH. Exits 1 with the reason for a file that is not a valid SBM.
 */
import { readFile } from 'node:fs/promises'
import { describeSbm } from '../workers/sbm/sbm-info'
import { SbmError } from '../workers/sbm/sbm-error'

const [path, ...extra] = process.argv.slice(2)
if (!path || extra.length > 0) {
  process.stderr.write('usage: npm run sbm:info -- <file.sbm>\n')
  process.exit(2)
}
try {
  const info = describeSbm(await readFile(path))
  process.stdout.write(`${JSON.stringify(info)}\n`)
} catch (error) {
  if (error instanceof SbmError) {
    process.stderr.write(`sbm:info: ${error.message} (${error.detail})\n`)
  } else {
    process.stderr.write(`sbm:info: cannot read ${path}: ${(error as Error).message}\n`)
  }
  process.exit(1)
}
