import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findBoundaryViolations, findImportCircles } from './check-boundaries'

const trees: string[] = []
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true })
})

/** A temporary project tree holding the given files (path → source). */
function plantTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'boundaries-'))
  trees.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

/** Files every planted tree has, each import allowed. */
const cleanTree = {
  'engine/api/index.ts': "export { Engine } from '../core/engine'\n",
  'engine/core/engine.ts': "import type { UnzipApi } from '../../workers/unzip/unzip-api'\n",
  'workers/unzip/unzip-api.ts': "import * as Comlink from 'comlink'\n",
  'src/engine-bridge/index.ts': "export { Engine } from '../../engine/api'\n",
  'src/pages/page.tsx': "import type { Engine } from '../../engine/api/index'\n",
  'server/app.ts': "import { userSchema } from '../contract/user'\nimport Fastify from 'fastify'\n",
  'contract/user.ts': "import { z } from 'zod'\nimport { recordIdSchema } from './common'\n",
  'contract/common.ts': "import { z } from 'zod'\n",
  'contract/common.test.ts': "import { expect, it } from 'vitest'\nimport { z } from 'zod'\n",
  'server/routes/upload.client.test.ts': "import { ApiError } from '../../src/api/client'\n",
  'src/api/auth.ts':
    "import { authRoutes } from '../../contract/auth'\nimport { api } from './index'\n",
  'src/api/client.test.ts': "import { session } from '../state/session'\n",
  'src/state/account.ts': "import { postSignIn } from '../api/auth'\n",
}

describe('check-boundaries', () => {
  it('passes a tree that keeps every rule', () => {
    expect(findBoundaryViolations(plantTree(cleanTree))).toEqual([])
  })

  it.each([
    ['the server importing src/', 'server/bad.ts', "import { x } from '../src/pages/page'\n"],
    ['the server importing engine/', 'server/bad.ts', "import type { X } from '../engine/api'\n"],
    [
      'contract/ importing a package other than zod',
      'contract/bad.ts',
      "import f from 'fastify'\n",
    ],
    ['contract/ importing the server', 'contract/bad.ts', "import { x } from '../server/app'\n"],
    ['workers importing server/', 'workers/unzip/bad.ts', "import { x } from '../../server/app'\n"],
    [
      'src/ importing an engine module other than engine/api/index.ts',
      'src/pages/bad.ts',
      "import type { X } from '../../engine/api/snapshot'\n",
    ],
    [
      'src/ importing the engine at run time outside the bridge',
      'src/pages/bad.ts',
      "import { Engine } from '../../engine/api'\n",
    ],
    ['the engine importing React', 'engine/core/bad.ts', "import { useState } from 'react'\n"],
    ['workers importing the engine', 'workers/unzip/bad.ts', "import '../../engine/api'\n"],
    [
      'the web client importing the session state',
      'src/api/bad.ts',
      "import { signIn } from '../state/session'\n",
    ],
    [
      'the web client importing the app',
      'src/api/bad.ts',
      "import { announceSessionTimeout } from '../app/session-timeout'\n",
    ],
  ])('fails on %s', (_rule, path, source) => {
    const violations = findBoundaryViolations(plantTree({ ...cleanTree, [path]: source }))
    expect(violations).toHaveLength(1)
    expect(violations[0]).toContain(path)
  })

  it('fails on an import circle in the server, naming its files once', () => {
    const violations = findBoundaryViolations(
      plantTree({
        ...cleanTree,
        'server/routes/city.ts': "import { registerTileRoutes } from './tiles'\n",
        'server/routes/tiles.ts': "import type { CityArea } from './city'\n",
      }),
    )
    expect(violations).toEqual([
      'server/routes/city.ts: import circle server/routes/city.ts → server/routes/tiles.ts → server/routes/city.ts',
    ])
  })

  it('finds a longer circle, through an index file, and a file importing itself', () => {
    const root = plantTree({
      ...cleanTree,
      'server/a.ts': "import { b } from './b'\n",
      'server/b/index.ts': "export { c } from '../c'\n",
      'server/c.ts': "import { a } from './a.ts'\nimport { d } from './d'\n",
      'server/d.ts': 'export const d = 1\n',
      'server/self.ts': "import { self } from './self'\n",
    })
    expect(findImportCircles(root)).toEqual([
      'server/a.ts: import circle server/a.ts → server/b/index.ts → server/c.ts → server/a.ts',
      'server/self.ts: import circle server/self.ts → server/self.ts',
    ])
  })

  it('exits non-zero as a script when a tree has a violation, naming the file', () => {
    const root = plantTree({ ...cleanTree, 'contract/bad.ts': "import f from 'fastify'\n" })
    const run = () =>
      execFileSync('npx', ['tsx', join(import.meta.dirname, 'check-boundaries.ts'), root], {
        encoding: 'utf8',
        stdio: 'pipe',
      })
    expect(run).toThrow(/contract\/bad\.ts/)
  })
})
