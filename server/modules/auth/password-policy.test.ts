import { describe, expect, it } from 'vitest'
import { AppError } from '../../http/app-error'
import { assertAcceptablePassword, loadCommonPasswords, passwordProblem } from './password-policy'

describe('the password policy', () => {
  it('ships a list of a few hundred common passwords, lower-cased', () => {
    const list = loadCommonPasswords()
    expect(list.size).toBeGreaterThan(300)
    for (const password of ['123456', 'password', 'qwerty123', '1q2w3e4r', 'iloveyou']) {
      expect(list.has(password), password).toBe(true)
    }
    expect([...list].every((password) => password === password.toLowerCase())).toBe(true)
  })

  it('takes 8 to 128 characters, counting an emoji as one', () => {
    expect(passwordProblem('Seven-7')).toEqual({ id: 'password.tooShort', params: { minimum: 8 } })
    expect(passwordProblem('Eight-88')).toBeUndefined()
    expect(passwordProblem(`${'x'.repeat(120)}Unique-8`)).toBeUndefined()
    expect(passwordProblem(`${'x'.repeat(121)}Unique-8`)).toEqual({
      id: 'password.tooLong',
      params: { maximum: 128 },
    })
    expect(passwordProblem('🔑🔑🔑🔑-lock')).toBeUndefined()
    expect(passwordProblem('🔑🔑🔑🔑')?.id).toBe('password.tooShort')
  })

  it('refuses common passwords whatever their case, and one repeated character', () => {
    for (const password of ['Password123', 'QWERTY123', 'PassW0rd', 'Iloveyou1']) {
      expect(passwordProblem(password)?.id, password).toBe('password.common')
    }
    expect(passwordProblem('zzzzzzzzzz')?.id).toBe('password.repeated')
  })

  it('refuses the account’s own name, phone or e-mail', () => {
    const owner = { name: 'river.lee', tel: '01098765432', email: 'river@example.com' }
    for (const password of ['River.Lee', '01098765432', 'RIVER@example.com']) {
      expect(passwordProblem(password, owner)?.id, password).toBe('password.ownIdentity')
    }
    expect(passwordProblem('river.lee.2031', owner)).toBeUndefined()
  })

  it('throws a validation error naming the field', () => {
    let thrown: unknown
    try {
      assertAcceptablePassword('password', {}, 'newPassword')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(AppError)
    expect(thrown).toMatchObject({
      kind: 'validation',
      details: [{ field: 'newPassword', message: expect.any(String) }],
    })
  })
})
