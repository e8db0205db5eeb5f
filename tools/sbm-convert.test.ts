import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeSbm } from '../workers/sbm/sbm-info'

const run = promisify(execFile)
const repo = fileURLToPath(new URL('..', import.meta.url))
const data = join(repo, '../shared/data')

/** Runs a tool as `npm run` does (tsx), minus npx's start-up, and reports exit code and output. */
async function tool(script: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repo,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string }
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

describe('sbm:convert and sbm:info', { timeout: 60_000 }, () => {
  let folder = ''
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'sbm-cli-'))
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('converts a multi-file glTF, reading its siblings, and prints one JSON line', async () => {
    const output = join(folder, 'box.sbm')
    const result = await tool(
      'tools/sbm-convert.ts',
      join(data, 'gltf/BoxTextured/separate/BoxTextured.gltf'),
      output,
      '--role',
      'floor',
      '--floors',
      '[{"id":"F1","name":"1F","elevation":0}]',
    )
    expect(result.code).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ triangleCount: 12, textureCount: 1, bvhCount: 1 })
    expect(describeSbm(await readFile(output))).toMatchObject({
      role: 'floor',
      floors: [{ id: 'F1', name: '1F', elevationMeters: 0 }],
    })

    const info = await tool('tools/sbm-info.ts', output)
    expect(info.code).toBe(0)
    expect(JSON.parse(info.stdout)).toMatchObject({
      role: 'floor',
      triangleCount: 12,
      meshes: [{ triangleCount: 12, hasStoredBvh: true }],
    })
  })

  it('exits non-zero with the reason for a refused model', async () => {
    const result = await tool(
      'tools/sbm-convert.ts',
      join(data, 'fbx/spider.fbx'),
      join(folder, 'x.sbm'),
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/missing: drkwood2\.jpg.*SpiderTex\.jpg/)
  })

  it('exits 2 with usage for missing arguments, and 1 for a file that is not SBM', async () => {
    const usage = await tool('tools/sbm-convert.ts', join(data, 'gltf/Duck/Duck.glb'))
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/usage: npm run sbm:convert/)
    const notSbm = await tool('tools/sbm-info.ts', join(data, 'gltf/Duck/Duck.glb'))
    expect(notSbm.code).toBe(1)
    expect(notSbm.stderr).toMatch(/Failed to load a model, not a valid SBM file!/)
  })
})
