import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UploadJpgDatum } from '../../../contract/files'
import type { NoticeListItem } from '../../../contract/notice'
import type { ManagedUser, User, UserPageDatum } from '../../../contract/user'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { latestCodeTo, otherCode } from './accounts-test-kit'
import { postMultipart, sampleFiles, signInNewUser } from './project-test-kit'

describe('the signed-in user’s own profile', () => {
  let testApp: TestApp
  let token: string
  beforeAll(async () => {
    testApp = await createTestApp()
    token = await signIn(testApp.app, testEditor)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const update = (body: unknown, url = '/web/user/updateUser') =>
    callApi<User>(testApp.app, { url, token, json: body })

  it('changes every User field of SPEC §3 and answers the updated user', async () => {
    const answer = await update({
      nickname: ' Dee ',
      sex: 'female',
      birthday: '1990-02-28',
      job_title: 'Surveyor',
      company: 'Twin Works',
    })
    expect(answer.envelope.code).toBe('0')
    expect(answer.envelope.datum).toMatchObject({
      name: 'demo',
      nickname: 'Dee',
      sex: 'female',
      birthday: '1990-02-28',
      job_title: 'Surveyor',
      company: 'Twin Works',
    })
    const me = await callApi<User>(testApp.app, { url: '/web/user/findUserName', token })
    expect(me.envelope.datum).toEqual(answer.envelope.datum)
    // The lower-case alias does the same; an emptied field is cleared, absent ones stay.
    const alias = await update({ company: '', job_title: 'Lead surveyor' }, '/web/user/updateuser')
    expect(alias.envelope.datum).toMatchObject({
      company: null,
      job_title: 'Lead surveyor',
      nickname: 'Dee',
    })
  })

  it('changes the phone and the e-mail only with a code sent to the new one', async () => {
    const { app, config } = testApp
    const call = <Datum>(url: string, form: Record<string, string>, as = token) =>
      callApi<Datum>(app, { url, token: as, form })
    // straight through the profile: refused, nothing changed
    for (const [body, field] of [
      [{ tel: '010 9876 5432' }, 'tel'],
      [{ email: 'Dee@Example.COM' }, 'email'],
    ] as const) {
      const refused = await update(body)
      expect(refused.statusCode, field).toBe(400)
      expect(refused.envelope, field).toMatchObject({
        messageId: 'account.contactNeedsCode',
        datum: { details: [{ field }] },
      })
    }
    expect(
      (await call('/web/user/sendPhoneChangeCode', { tel: '010 9876 5432' })).envelope.code,
    ).toBe('0')
    // the code travels only to the new phone, never in the answer
    const code = await latestCodeTo(config.outboxFile, '01098765432')
    const wrong = await call('/web/user/changePhone', { tel: '01098765432', code: otherCode(code) })
    expect(wrong.statusCode).toBe(400)
    const me = () => callApi<User>(app, { url: '/web/user/findUserName', token })
    expect((await me()).envelope.datum.tel).toBeNull()
    const changed = await call<User>('/web/user/changePhone', { tel: '010-9876-5432', code })
    expect(changed.envelope.datum.tel).toBe('01098765432')
    expect((await me()).envelope.datum.tel).toBe('01098765432')
    // a code works once
    const again = await call('/web/user/changePhone', { tel: '01098765432', code })
    expect(again.statusCode).toBe(400)

    await call('/web/user/sendEmailChangeCode', { email: 'Dee@Example.COM' })
    const mailCode = await latestCodeTo(config.outboxFile, 'dee@example.com')
    const mailed = await call<User>('/web/user/changeEmail', {
      email: 'dee@example.com',
      code: mailCode,
    })
    expect(mailed.envelope.datum.email).toBe('dee@example.com')
    // the profile saved with the same phone, or an address cleared, needs no code
    expect((await update({ tel: '01098765432', nickname: 'Dee' })).envelope.code).toBe('0')
    expect((await update({ email: '' })).envelope.datum.email).toBeNull()
    // a guest has no account to change
    const guest = await signInNewUser(app, 'contact-change-guest', 'guest')
    const byGuest = await call('/web/user/sendPhoneChangeCode', { tel: '01055556666' }, guest)
    expect(byGuest.statusCode).toBe(403)
  })

  it('names the wrong field of a bad profile', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ birthday: '2026-02-30' }, 'birthday'],
      [{ sex: 'unknown' }, 'sex'],
      [{ tel: 'call me' }, 'tel'],
      [{ email: 'not-an-address' }, 'email'],
      [{ name: 'two words' }, 'name'],
      [{ nickname: 'n'.repeat(65) }, 'nickname'],
      [{ avatar: 'javascript:alert(1)' }, 'avatar'],
      [{ avatar: 'https://tracker.example.com/pixel.png' }, 'avatar'],
    ]
    for (const [body, field] of cases) {
      const answer = await update(body)
      expect(answer.statusCode, field).toBe(400)
      expect(answer.envelope.datum, field).toMatchObject({ details: [{ field }] })
    }
  })

  it('refuses a phone, e-mail or name another account has', async () => {
    const other = { name: 'other-editor', password: 'Other-Editor-Pass-1' }
    await testApp.app.deps.services.users.createUser({
      ...other,
      role: 'editor',
      tel: '01011112222',
      email: 'other@example.com',
    })
    for (const [url, body] of [
      ['/web/user/sendPhoneChangeCode', { tel: '010-1111-2222' }],
      ['/web/user/sendEmailChangeCode', { email: 'OTHER@example.com' }],
      ['/web/user/changePhone', { tel: '010-1111-2222', code: '123456' }],
      ['/web/user/updateUser', { name: 'other-editor' }],
    ] as const) {
      const answer = await callApi(testApp.app, { url, token, json: body })
      expect(answer.statusCode, JSON.stringify(body)).toBe(409)
    }
  })

  it('takes as avatar only an image the user uploaded', async () => {
    const { png } = await sampleFiles()
    const uploaded = await postMultipart<UploadJpgDatum>(
      testApp.app,
      '/web/upload/uploadJpg',
      token,
      [{ name: 'file', value: png, fileName: 'me.png', contentType: 'image/png' }],
    )
    expect(uploaded.envelope.code).toBe('0')
    const path = `${uploaded.envelope.datum.rootPath}${uploaded.envelope.datum.jpgName}`
    const answer = await update({ avatar: path })
    expect(answer.envelope.datum.avatar).toBe(path)
    const served = await testApp.app.inject({ method: 'GET', url: path })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')

    // Someone else's upload, or a made-up one, is refused.
    const adminToken = await signIn(testApp.app, testAdmin)
    const adminsImage = await postMultipart<UploadJpgDatum>(
      testApp.app,
      '/web/upload/uploadJpg',
      adminToken,
      [{ name: 'file', value: png, fileName: 'admin.png', contentType: 'image/png' }],
    )
    for (const avatar of [
      adminsImage.envelope.datum.jpgName,
      '/web/files/00000000-0000-4000-8000-000000000000.png',
    ]) {
      const refused = await update({ avatar })
      expect(refused.statusCode, avatar).toBe(400)
    }
    expect((await update({ avatar: '' })).envelope.datum.avatar).toBeNull()
  })
})

describe('account management by an admin', () => {
  let testApp: TestApp
  let adminToken: string
  beforeAll(async () => {
    testApp = await createTestApp()
    adminToken = await signIn(testApp.app, testAdmin)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const asAdmin = <Datum>(url: string, body: unknown) =>
    callApi<Datum>(testApp.app, { url, token: adminToken, json: body })

  it('creates accounts that can sign in, with the password rules', async () => {
    const created = await asAdmin<ManagedUser>('/web/user/insertUser', {
      name: 'surveyor-1',
      password: 'Field-Notes-2031',
      tel: '',
      nickname: 'Surveyor',
    })
    expect(created.envelope.datum).toMatchObject({
      name: 'surveyor-1',
      tel: null,
      role: 'editor',
      role_name: 'editor',
    })
    await signIn(testApp.app, { name: 'surveyor-1', password: 'Field-Notes-2031' })
    const common = await asAdmin('/web/user/insertUser', { name: 'x1', password: 'iloveyou123' })
    expect(common.statusCode).toBe(400)
    const taken = await asAdmin('/web/user/insertUser', {
      name: 'surveyor-1',
      password: 'Field-Notes-2032',
    })
    expect(taken.statusCode).toBe(409)
  })

  it('lists accounts a page at a time by keyword, guests left out, wildcards taken literally', async () => {
    for (const name of ['lake_100', 'lake-200', 'lake%300']) {
      testApp.clock.advanceMs(1_000)
      await asAdmin('/web/user/insertUser', { name, password: 'Lakeside-View-77' })
    }
    await callApi(testApp.app, { url: '/web/login/guest', json: {} })
    const page = await asAdmin<UserPageDatum>('/web/user/selectUser', {
      keyword: 'LAKE',
      pageNo: 1,
      pageSize: 2,
    })
    expect(page.envelope.datum.total).toBe(3)
    expect(page.envelope.datum.list.map((user) => user.name)).toEqual(['lake%300', 'lake-200'])
    for (const [keyword, names] of [
      ['_', ['lake_100']],
      ['%', ['lake%300']],
    ] as const) {
      const found = await asAdmin<UserPageDatum>('/web/user/selectUser', { keyword })
      expect(found.envelope.datum.list.map((user) => user.name)).toEqual(names)
    }
    const everyone = await asAdmin<UserPageDatum>('/web/user/selectUser', { pageSize: 100 })
    expect(everyone.envelope.datum.list.every((user) => user.role !== 'guest')).toBe(true)
    // Form-encoded paging arrives as text.
    const form = await callApi<UserPageDatum>(testApp.app, {
      url: '/web/user/selectUser',
      token: adminToken,
      form: { pageNo: '2', pageSize: '1', keyword: 'lake' },
    })
    expect(form.envelope.datum.list.map((user) => user.name)).toEqual(['lake-200'])
  })

  it('edits another account and its role, but never the admin’s own role', async () => {
    const target = await asAdmin<ManagedUser>('/web/user/insertUser', {
      name: 'promote-me',
      password: 'Promotion-Day-5',
    })
    const promoted = await asAdmin<User>('/web/user/updateUser', {
      id: target.envelope.datum.id,
      nickname: 'Promoted',
      role: 'admin',
    })
    expect(promoted.envelope.datum).toMatchObject({ nickname: 'Promoted', role: 'admin' })
    const admin = (
      await callApi<User>(testApp.app, { url: '/web/user/findUserName', token: adminToken })
    ).envelope.datum
    const own = await asAdmin('/web/user/updateUser', { id: admin.id, role: 'editor' })
    expect(own.statusCode).toBe(403)
    const unknownRole = await asAdmin('/web/user/updateUser', {
      id: target.envelope.datum.id,
      role: 'no-such-role',
    })
    expect(unknownRole.statusCode).toBe(400)
  })

  it('disables an account (its sessions end, it cannot sign in) and enables it again', async () => {
    const account = { name: 'paused-user', password: 'Paused-User-Pass-7' }
    const created = await asAdmin<ManagedUser>('/web/user/insertUser', account)
    const id = created.envelope.datum.id
    expect(created.envelope.datum.disabled).toBe(false)
    const sessionToken = await signIn(testApp.app, account)
    // an editor may not; nor may the admin disable the admin's own account
    const byEditor = await callApi(testApp.app, {
      url: '/web/user/disableUser',
      token: sessionToken,
      json: { id, disabled: true },
    })
    expect(byEditor.statusCode).toBe(403)
    const admin = (
      await callApi<User>(testApp.app, { url: '/web/user/findUserName', token: adminToken })
    ).envelope.datum
    const own = await asAdmin('/web/user/disableUser', { id: admin.id, disabled: true })
    expect(own.statusCode).toBe(403)
    expect(own.envelope.messageId).toBe('account.ownAccountDisabled')

    const disabled = await asAdmin<ManagedUser>('/web/user/disableUser', { id, disabled: true })
    expect(disabled.envelope.datum).toMatchObject({ id, disabled: true })
    const after = await callApi(testApp.app, { url: '/web/user/findUserName', token: sessionToken })
    expect(after.envelope.code).toBe('2011')
    const refused = await callApi(testApp.app, { url: '/web/login', json: account })
    expect(refused.statusCode).toBe(403)
    expect(refused.envelope.messageId).toBe('auth.accountDisabled')
    const listed = await asAdmin<UserPageDatum>('/web/user/selectUser', { keyword: 'paused' })
    expect(listed.envelope.datum.list.map((user) => [user.name, user.disabled])).toEqual([
      ['paused-user', true],
    ])

    const enabled = await asAdmin<ManagedUser>('/web/user/disableUser', { id, disabled: 'false' })
    expect(enabled.envelope.datum.disabled).toBe(false)
    expect((await callApi(testApp.app, { url: '/web/login', json: account })).envelope.code).toBe(
      '0',
    )
    expect(
      (await asAdmin('/web/user/disableUser', { id: 'no-such', disabled: true })).statusCode,
    ).toBe(404)
  })

  it('deletes other accounts, ending their sessions, but not the admin’s own', async () => {
    const victim = await asAdmin<ManagedUser>('/web/user/insertUser', {
      name: 'short-lived',
      password: 'Short-Lived-Pass-3',
    })
    const victimToken = await signIn(testApp.app, {
      name: 'short-lived',
      password: 'Short-Lived-Pass-3',
    })
    expect(
      (await asAdmin('/web/user/deleteUser', { id: victim.envelope.datum.id })).envelope.code,
    ).toBe('0')
    const after = await callApi(testApp.app, { url: '/web/user/findUserName', token: victimToken })
    expect(after.envelope.code).toBe('2011')
    expect(
      (await asAdmin('/web/user/deleteUser', { id: victim.envelope.datum.id })).statusCode,
    ).toBe(404)
    const admin = (
      await callApi<User>(testApp.app, { url: '/web/user/findUserName', token: adminToken })
    ).envelope.datum
    const self = await asAdmin('/web/user/deleteUser', { id: admin.id })
    expect(self.statusCode).toBe(403)
  })
})

describe('notices', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('shows every notice, newest first, with each user’s own read marks', async () => {
    const { app, clock } = testApp
    const adminToken = await signIn(app, testAdmin)
    const editorToken = await signIn(app, testEditor)
    const ids: string[] = []
    for (const title of ['Maintenance', 'New release']) {
      clock.advanceMs(1_000)
      const created = await callApi<{ id: string }>(app, {
        url: '/web/notice/createNotice',
        token: adminToken,
        json: { title, body: `${title} details` },
      })
      ids.push(created.envelope.datum.id)
    }
    const list = (token: string) =>
      callApi<NoticeListItem[]>(app, { url: '/web/notice/queryNotices', token, json: {} })
    const before = await list(editorToken)
    expect(before.envelope.datum).toEqual([
      {
        id: ids[1],
        title: 'New release',
        body: 'New release details',
        created_at: expect.any(String),
        is_read: false,
      },
      {
        id: ids[0],
        title: 'Maintenance',
        body: 'Maintenance details',
        created_at: expect.any(String),
        is_read: false,
      },
    ])
    for (let repeat = 0; repeat < 2; repeat++) {
      const marked = await callApi(app, {
        url: '/web/notice/createNoticeUser',
        token: editorToken,
        form: { notice_id: ids[0] as string },
      })
      expect(marked.envelope.code).toBe('0')
    }
    expect((await list(editorToken)).envelope.datum.map((notice) => notice.is_read)).toEqual([
      false,
      true,
    ])
    expect((await list(adminToken)).envelope.datum.map((notice) => notice.is_read)).toEqual([
      false,
      false,
    ])
    const unknown = await callApi(app, {
      url: '/web/notice/createNoticeUser',
      token: editorToken,
      json: { notice_id: 'no-such-notice' },
    })
    expect(unknown.statusCode).toBe(404)
  })
})
