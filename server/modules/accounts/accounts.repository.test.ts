import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUniqueViolation } from '../../plugins/db'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { timestampOf } from '../time/clock'
import type { UserRow } from './users.repository'

describe('users and sessions tables', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ seed: false })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const userRow = (id: string, name: string, changes: Partial<UserRow> = {}): UserRow => ({
    id,
    name,
    nickname: null,
    sex: null,
    tel: null,
    email: null,
    birthday: null,
    job_title: null,
    company: null,
    avatar: null,
    password_hash: 'scrypt$unused',
    role: 'editor',
    disabled: 0,
    created_at: timestampOf(0),
    updated_at: timestampOf(0),
    ...changes,
  })

  it('keeps names, phone numbers and e-mails unique but allows many without', async () => {
    const { users } = testApp.app.deps.repositories
    await users.insert(userRow('u1', 'ann', { tel: '13800000000', email: 'ann@example.com' }))
    await users.insert(userRow('u2', 'bob'))
    await users.insert(userRow('u3', 'cid'))
    for (const duplicate of [
      userRow('u4', 'ann'),
      userRow('u5', 'dan', { tel: '13800000000' }),
      userRow('u6', 'eve', { email: 'ann@example.com' }),
      userRow('u1', 'fay'),
    ]) {
      const failure = await users.insert(duplicate).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(isUniqueViolation(failure), duplicate.name).toBe(true)
    }
    expect(await users.countAll()).toBe(3)
    expect((await users.findByTel('13800000000'))?.name).toBe('ann')
    expect((await users.findByEmail('ann@example.com'))?.name).toBe('ann')
  })

  it('refuses sessions of unknown users and unknown roles (constraints hold in both dialects)', async () => {
    const { users, sessions } = testApp.app.deps.repositories
    const session = {
      id: 's-orphan',
      user_id: 'no-such-user',
      token_hash: 'h-orphan',
      kind: 'user' as const,
      created_at: timestampOf(0),
      last_seen_at: timestampOf(0),
      expires_at: timestampOf(1),
      revoked_at: null,
    }
    await expect(sessions.insert(session)).rejects.toThrow()
    await expect(
      users.insert(userRow('u9', 'zed', { role: 'owner' as UserRow['role'] })),
    ).rejects.toThrow()
  })

  it('sweeps sessions that ended before the cutoff, and keeps live ones', async () => {
    const { users, sessions } = testApp.app.deps.repositories
    await users.insert(userRow('u-sweep', 'sweeper'))
    const base = {
      user_id: 'u-sweep',
      kind: 'user' as const,
      created_at: timestampOf(0),
      last_seen_at: timestampOf(0),
      revoked_at: null,
    }
    await sessions.insert({
      ...base,
      id: 'expired',
      token_hash: 'h1',
      expires_at: timestampOf(1_000),
    })
    await sessions.insert({ ...base, id: 'live', token_hash: 'h2', expires_at: timestampOf(9_000) })
    await sessions.insert({
      ...base,
      id: 'revoked',
      token_hash: 'h3',
      expires_at: timestampOf(9_000),
    })
    expect(await sessions.revoke('revoked', timestampOf(2_000))).toBe(true)
    expect(await sessions.revoke('revoked', timestampOf(2_500))).toBe(false)
    expect(await sessions.deleteEndedBefore(timestampOf(5_000))).toBe(2)
    expect((await sessions.findByTokenHash('h2'))?.id).toBe('live')
    expect(await sessions.findByTokenHash('h1')).toBeUndefined()
    expect(await sessions.revokeAllOfUser('u-sweep', timestampOf(6_000))).toBe(1)
  })
})
