import { afterEach, describe, expect, it } from 'vitest'
import type { Envelope } from '../../../contract/envelope'
import { ApiError } from '../../api/client'
import { activateLanguage } from '../../i18n/i18n'
import { errorText } from './error-text'
import { serverMessageText } from './server-messages'

afterEach(async () => {
  await activateLanguage('en')
})

function serverFailure(envelope: Envelope): ApiError {
  return new ApiError({ reason: 'server', envelope, httpStatus: 400, fallbackMessage: '' })
}

describe('serverMessageText', () => {
  it('renders a message id in the language of the console, never the English text', async () => {
    const answer = {
      code: '1001',
      message: 'Incorrect user name or password.',
      messageId: 'auth.badCredentials',
      params: {},
      datum: null,
    }
    await activateLanguage('ko')
    expect(serverMessageText(answer)).toBe('사용자 이름 또는 비밀번호가 올바르지 않습니다.')
    await activateLanguage('zh')
    expect(errorText(serverFailure(answer))).toBe('用户名或密码错误。')
  })

  it('says the archive refusal of an upload in Korean and Chinese, naming the candidates', async () => {
    const answer = {
      code: '1000',
      message: 'The archive has no tileset.json and several JSON files could be the root …',
      messageId: 'tileset.ambiguousRoots',
      params: { names: 'tilesetA.json, tilesetB.json' },
      datum: { details: { candidates: ['tilesetA.json', 'tilesetB.json'] } },
    }
    await activateLanguage('ko')
    expect(errorText(serverFailure(answer))).toBe(
      '압축 파일에 tileset.json이 없고 루트 타일셋이 될 수 있는 JSON 파일이 여러 개 있습니다: tilesetA.json, tilesetB.json. 루트 파일의 이름을 tileset.json으로 바꾼 뒤 다시 업로드해 주세요.',
    )
    await activateLanguage('zh')
    expect(errorText(serverFailure(answer))).toBe(
      '压缩包中没有 tileset.json，且有多个 JSON 文件都可能是根瓦片集：tilesetA.json, tilesetB.json。请将根文件重命名为 tileset.json 后重新上传。',
    )
  })

  it('names the zip entry that is not an SBM, in Korean and Chinese', async () => {
    const answer = {
      code: '1015',
      message: 'levels/2F.sbm in floors.zip is not a valid SBM file.',
      messageId: 'building.zipEntryNotSbm',
      params: { entry: 'levels/2F.sbm', file: 'floors.zip' },
      datum: { details: [{ file: 'levels/2F.sbm', reason: 'not a GLB container' }] },
    }
    await activateLanguage('ko')
    expect(errorText(serverFailure(answer))).toBe(
      'floors.zip의 levels/2F.sbm은(는) 올바른 SBM 파일이 아닙니다.',
    )
    await activateLanguage('zh')
    expect(errorText(serverFailure(answer))).toBe(
      'floors.zip 中的 levels/2F.sbm 不是有效的 SBM 文件。',
    )
  })

  it('fills in the parameters', async () => {
    const answer = {
      code: '1029',
      message:
        'Too many failed sign-ins from here: this account is locked for you for 15 more minute(s).',
      messageId: 'signIn.lockedHere',
      params: { minutes: 15 },
      datum: { retryAfterSeconds: 900 },
    }
    await activateLanguage('en')
    expect(serverMessageText(answer)).toBe(answer.message)
    await activateLanguage('ko')
    expect(serverMessageText(answer)).toContain('15')
    expect(serverMessageText(answer)).toMatch(/\p{Script=Hangul}/u)
  })

  it('lists each wrong field of a validation answer with its problem', async () => {
    const answer = {
      code: '1000',
      message: 'name: Required; password: At least 8 characters',
      messageId: 'validation.invalidFields',
      params: { fields: 'name, password, tel, email' },
      datum: {
        details: ['name', 'password', 'tel', 'email'].map((field) => ({
          field,
          message: 'Required',
          messageId: 'validation.required',
          params: {},
        })),
      },
    }
    await activateLanguage('en')
    expect(serverMessageText(answer)).toBe(
      'name: Required; password: Required; tel: Required; and 1 more',
    )
  })

  it('shows a field error of a service as its own sentence', async () => {
    const answer = {
      code: '1000',
      message: 'code: The verification code is wrong (3 tries left).',
      messageId: 'code.wrongWithTriesLeft',
      params: { tries: 3 },
      datum: {
        details: [
          {
            field: 'code',
            message: 'The verification code is wrong (3 tries left).',
            messageId: 'code.wrongWithTriesLeft',
            params: { tries: 3 },
          },
        ],
      },
    }
    await activateLanguage('en')
    expect(serverMessageText(answer)).toBe('The verification code is wrong (3 tries left).')
  })

  it('answers an id it does not know with the general text of the code', async () => {
    await activateLanguage('ko')
    const unknown = {
      code: '1003',
      message: 'Some new English.',
      messageId: 'new.thing',
      datum: null,
    }
    expect(serverMessageText(unknown)).toBe(
      serverMessageText({ ...unknown, messageId: 'error.forbidden' }),
    )
    expect(serverMessageText(unknown)).not.toContain('English')
    expect(serverMessageText({ code: '1003', datum: null })).toMatch(/\p{Script=Hangul}/u)
  })
})
