import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileGrants } from './file-grants'

describe('file grants', () => {
  let folder: string | undefined
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  it('keeps handed-out grants valid across restarts and ties each to one resource', async () => {
    folder = await mkdtemp(join(tmpdir(), 'grants-'))
    const keyFile = join(folder, 'keys', 'grants.key')
    const first = createFileGrants(keyFile)
    const grant = first.grantFor('model:a:1')
    expect((await stat(keyFile)).mode & 0o077).toBe(0)
    const restarted = createFileGrants(keyFile)
    expect(restarted.isValid('model:a:1', grant)).toBe(true)
    expect(restarted.isValid('model:a:2', grant)).toBe(false)
    expect(restarted.isValid('model:a:1', grant.toUpperCase())).toBe(false)
    expect(restarted.isValid('model:a:1', `${grant}0`)).toBe(false)
    const otherKey = createFileGrants(join(folder, 'other.key'))
    expect(otherKey.isValid('model:a:1', grant)).toBe(false)
  })
})
