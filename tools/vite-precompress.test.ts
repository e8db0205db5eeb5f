import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { compressFolder } from './vite-precompress'

describe('compressFolder', () => {
  let folder = ''
  afterEach(() => rm(folder, { recursive: true, force: true }))

  it('writes brotli and gzip copies beside text files, and leaves small and binary files alone', async () => {
    folder = await mkdtemp(join(tmpdir(), 'twinscape-precompress-'))
    await mkdir(join(folder, 'assets'))
    const script = `export const rows = [${'{"name":"tile"},'.repeat(2000)}]\n`
    await writeFile(join(folder, 'assets', 'app-Ab12.js'), script)
    await writeFile(join(folder, 'assets', 'tiny-Cd34.js'), 'export {}')
    await writeFile(join(folder, 'cover.png'), Buffer.alloc(4096, 7))
    const summary = await compressFolder(folder)
    expect(summary.files).toBe(1)
    expect((await readdir(join(folder, 'assets'))).sort()).toEqual([
      'app-Ab12.js',
      'app-Ab12.js.br',
      'app-Ab12.js.gz',
      'tiny-Cd34.js',
    ])
    expect(await readdir(folder)).not.toContain('cover.png.br')
    const brotli = await readFile(join(folder, 'assets', 'app-Ab12.js.br'))
    const gzip = await readFile(join(folder, 'assets', 'app-Ab12.js.gz'))
    expect(brotliDecompressSync(brotli).toString()).toBe(script)
    expect(gunzipSync(gzip).toString()).toBe(script)
    expect(brotli.length).toBeLessThan(script.length / 10)
  })
})
