import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const data = '../shared/data/indoorgml'

/** Runs a CLI the way `npm run` does (tsx, from the repo root) and collects its output. */
function run(script: string, args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: root, env: { ...process.env, INIT_CWD: root } },
      (error, stdout, stderr) => {
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
      },
    )
  })
}

describe('npm run gml:route', () => {
  it('prints the FJK-Haus route R10 → R21 as one JSON line', async () => {
    const result = await run('tools/gml-route.ts', [
      `${data}/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml`,
      'R10',
      'R21',
    ])
    expect(result).toEqual({
      code: 0,
      stdout: '{"path":["R10","R3","R12","R23","R21"],"length":13.367}\n',
      stderr: '',
    })
  })

  it('prints {"path":null} for the isolated PNU State S26 and exits 0', async () => {
    const result = await run('tools/gml-route.ts', [
      `${data}/PNU-201_nav-demo_2019-05-24-corrected.gml`,
      'S1',
      'S26',
    ])
    expect(result).toEqual({ code: 0, stdout: '{"path":null}\n', stderr: '' })
  })

  it('exits non-zero with a readable reason for an unknown id or a file without a network', async () => {
    const unknown = await run('tools/gml-route.ts', [
      `${data}/PNU-201_nav-demo_2019-05-24-corrected.gml`,
      'S1',
      'S999',
    ])
    expect(unknown.code).toBe(1)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toMatch(/Unknown end State 'S999'.*\[gml\.unknownState\]/)
    const negative = await run('tools/gml-route.ts', [
      `${data}/negative/KU-EngBuilding-IndoorGML-2019-01-31_no-dual-graph.gml`,
      'a',
      'b',
    ])
    expect(negative.code).toBe(1)
    expect(negative.stderr).toMatch(/GML has no navigation network/)
  })
})

describe('npm run gml:info', () => {
  it('prints the counts of KU-Central-Plaza as one JSON line', async () => {
    const result = await run('tools/gml-info.ts', [
      `${data}/KU-Central-Plaza-IndoorGML-PS-without-Texture-04-26-corrected.gml`,
    ])
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(result.stdout)).toMatchObject({
      states: 88,
      transitions: 108,
      layers: 3,
      storeys: 1,
      components: 1,
      interLayerConnections: 36,
    })
  })

  it('exits 2 with the usage when the file is missing', async () => {
    const result = await run('tools/gml-info.ts', [])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/usage: npm run gml:info/)
  })
})
