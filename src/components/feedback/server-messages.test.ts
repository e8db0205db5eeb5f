import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import { activateLanguage } from '../../i18n/i18n'
import { errorText } from './error-text'
import { translateServerMessage } from './server-messages'

afterEach(async () => {
  await activateLanguage('en')
})

function serverFailure(message: string): ApiError {
  return new ApiError({
    reason: 'server',
    envelope: { code: '1001', message, datum: null },
    httpStatus: 401,
    fallbackMessage: '',
  })
}

describe('translateServerMessage', () => {
  it('shows a known server message in the language of the console', async () => {
    await activateLanguage('ko')
    expect(translateServerMessage('Incorrect user name or password.')).toBe(
      '사용자 이름 또는 비밀번호가 올바르지 않습니다.',
    )
    await activateLanguage('zh')
    expect(errorText(serverFailure('Incorrect user name or password.'))).toBe('用户名或密码错误。')
  })

  it('translates the problem of a `field: problem` validation answer', async () => {
    await activateLanguage('ko')
    expect(
      translateServerMessage(
        'password: This password is one of the most common ones. Please choose another.',
      ),
    ).toBe('너무 흔한 비밀번호입니다. 다른 비밀번호를 골라 주세요.')
  })

  it('keeps the number of a message matched by shape', async () => {
    await activateLanguage('en')
    expect(
      translateServerMessage(
        '3 user(s) hold this role: give them another role before deleting it.',
      ),
    ).toBe('Accounts holding this role: 3. Give them another role before deleting it.')
    await activateLanguage('zh')
    expect(
      translateServerMessage(
        '12 user(s) hold this role: give them another role before deleting it.',
      ),
    ).toBe('持有此角色的账号：12 个。删除前请先为它们指定其他角色。')
  })

  it('shows an unknown message as the server sent it (SPEC §7)', async () => {
    await activateLanguage('ko')
    expect(translateServerMessage('Only an admin may list the projects of another user.')).toBe(
      'Only an admin may list the projects of another user.',
    )
    expect(translateServerMessage('name: Something new')).toBe('name: Something new')
  })
})
