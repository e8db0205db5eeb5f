import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateTicketDatum, LoginDatum } from '../../../contract/auth'
import type { UploadJpgDatum } from '../../../contract/files'
import type { NoticeListItem } from '../../../contract/notice'
import type { Role } from '../../../contract/role'
import type { ManagedUser, User } from '../../../contract/user'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { callFrom } from './accounts-test-kit'
import { postMultipart, sampleFiles } from './project-test-kit'

/**
 * The access-control walk of issue 3: every account route, called as anonymous, a guest, the
 * editor who owns the data (A), another editor (B) and an admin, with bodies aimed at A's data.
 * The table says what each must get; the invariants after it prove nobody read or changed what
 * is not theirs.
 */

const actors = ['anonymous', 'guest', 'editorA', 'editorB', 'admin'] as const
type Actor = (typeof actors)[number]

/** Expected envelope code per actor. */
type Expected = Record<Actor, string>

const ok = '0'
const timeout = '2011'
const forbidden = '1003'
const validation = '1000'
const badCredentials = '1001'

/** Signed-in only, any role. */
const anySignedIn: Expected = { anonymous: timeout, guest: ok, editorA: ok, editorB: ok, admin: ok }
/** Editors and admins; guests refused. */
const editorsOnly = (own: string): Expected => ({
  anonymous: timeout,
  guest: forbidden,
  editorA: own,
  editorB: own,
  admin: own,
})
const adminOnly: Expected = {
  anonymous: timeout,
  guest: forbidden,
  editorA: forbidden,
  editorB: forbidden,
  admin: ok,
}
const everyone = (code: string): Expected => ({
  anonymous: code,
  guest: code,
  editorA: code,
  editorB: code,
  admin: code,
})

/**
 * A new phone and e-mail of each actor's own for the contact-change rows, so no resend countdown
 * or per-address limit of one actor blurs another's answer.
 */
const newTel = (actor: Actor) => `0107777000${actors.indexOf(actor)}`
const newEmail = (actor: Actor) => `changed-${actor}@example.com`

interface Fixture {
  tokens: Record<Actor, string | undefined>
  ids: Record<Exclude<Actor, 'anonymous'>, string>
  editorA: { name: string; password: string; tel: string; email: string }
  avatarOfA: string
  noticeId: string
  customRoleId: string
}

interface WalkRow {
  url: string
  method?: 'GET' | 'POST'
  body?: (fixture: Fixture, actor: Actor) => unknown
  expected: Expected
  /** More about a successful answer, checked at once (e.g. whom it is about). */
  check?: (context: {
    testApp: TestApp
    fixture: Fixture
    actor: Exclude<Actor, 'anonymous'>
    datum: unknown
  }) => Promise<void>
}

const walk: WalkRow[] = [
  {
    // A token changes nothing at sign-in. (Another name than A's: five failures would lock it.)
    url: '/web/login',
    body: () => ({ name: 'someone-else', password: 'not-the-password' }),
    expected: everyone(badCredentials),
  },
  { url: '/web/refreshToken', expected: anySignedIn },
  {
    url: '/web/user/findUserName',
    expected: anySignedIn,
    check: async ({ fixture, actor, datum }) => {
      expect((datum as User).id).toBe(fixture.ids[actor])
    },
  },
  {
    url: '/web/user/updateUser',
    body: (f, actor) => ({ id: f.ids.editorA, nickname: `by-${actor}` }),
    expected: { ...editorsOnly(ok), editorB: forbidden },
  },
  {
    url: '/web/user/updateuser',
    body: (f, actor) => ({ id: f.ids.editorA, job_title: `by-${actor}` }),
    expected: { ...editorsOnly(ok), editorB: forbidden },
  },
  {
    // Without an id the call is about the caller: B cannot wear A's avatar.
    url: '/web/user/updateUser',
    body: (f) => ({ avatar: f.avatarOfA }),
    expected: { ...editorsOnly(validation), editorA: ok },
  },
  {
    url: '/web/user/updateUser',
    // A custom role of the editor level: the walk goes on with A still an editor.
    body: (f) => ({ id: f.ids.editorA, role: 'walk-custom' }),
    expected: { ...editorsOnly(forbidden), admin: ok },
  },
  { url: '/web/user/selectUser', body: () => ({ keyword: '' }), expected: adminOnly },
  {
    url: '/web/user/insertUser',
    body: (_f, actor) => ({ name: `walk-${actor}`, password: 'Walk-Created-Pass-1' }),
    expected: adminOnly,
  },
  {
    url: '/web/user/createTicket',
    expected: anySignedIn,
    check: async ({ testApp, fixture, actor, datum }) => {
      const exchanged = await callApi<LoginDatum>(testApp.app, {
        method: 'GET',
        url: `/web/getTokenByTicket?ticket=${(datum as CreateTicketDatum).ticket}`,
      })
      expect(exchanged.envelope.datum.user.id).toBe(fixture.ids[actor])
    },
  },
  {
    method: 'GET',
    url: `/web/getTokenByTicket?ticket=${'A'.repeat(43)}`,
    expected: everyone(timeout),
  },
  { url: '/web/login/guest', body: () => ({}), expected: everyone(ok) },
  {
    url: '/web/register/verificationSms',
    body: (f) => ({ tel: f.editorA.tel, purpose: 'forget' }),
    expected: everyone(ok),
  },
  {
    url: '/web/register/forgetPasswordByTelNo',
    body: (f) => ({ tel: f.editorA.tel, code: '000000', password: 'Taken-Over-Pass-9' }),
    expected: everyone(validation),
  },
  {
    url: '/web/register/forgetPasswordVer',
    body: (f) => ({ tel: f.editorA.tel, code: '000000' }),
    expected: everyone(validation),
  },
  {
    url: '/web/register/registerByTelNo',
    body: (f) => ({ tel: f.editorA.tel, code: '000000', password: 'Taken-Over-Pass-9', name: 'x' }),
    expected: everyone(validation),
  },
  {
    url: '/web/register/verificationMail',
    body: (f) => ({ email: f.editorA.email }),
    expected: everyone(ok),
  },
  {
    url: '/web/register/registerbymail',
    body: (f) => ({
      email: f.editorA.email,
      code: '000000',
      password: 'Taken-Over-Pass-9',
      name: 'y',
    }),
    expected: everyone(validation),
  },
  {
    url: '/web/register/isexistemail',
    body: (f) => ({ email: f.editorA.email }),
    expected: everyone(ok),
  },
  // a change of one's own phone or e-mail: a code to the new one, then the change with it (a
  // made-up code here, refused with nothing changed); a guest has no account to change
  {
    url: '/web/user/sendPhoneChangeCode',
    body: (_f, actor) => ({ tel: newTel(actor) }),
    expected: editorsOnly(ok),
  },
  {
    url: '/web/user/changePhone',
    body: (_f, actor) => ({ tel: newTel(actor), code: '000000' }),
    expected: editorsOnly(validation),
  },
  {
    url: '/web/user/sendEmailChangeCode',
    body: (_f, actor) => ({ email: newEmail(actor) }),
    expected: editorsOnly(ok),
  },
  {
    url: '/web/user/changeEmail',
    body: (_f, actor) => ({ email: newEmail(actor), code: '000000' }),
    expected: editorsOnly(validation),
  },
  {
    url: '/web/role/add',
    body: (_f, actor) => ({ name: `role-by-${actor}`, access_level: 'admin' }),
    expected: adminOnly,
  },
  {
    url: '/web/role/edit',
    body: (f, actor) => ({ id: f.customRoleId, description: `by ${actor}` }),
    expected: adminOnly,
  },
  { url: '/web/role/findOne', body: (f) => ({ id: f.customRoleId }), expected: adminOnly },
  { url: '/web/role/findAll', expected: adminOnly },
  { url: '/web/role/search', body: () => ({ keyword: 'walk' }), expected: adminOnly },
  { method: 'GET', url: '/web/roleMenu/selectRoleMenu_Vue', expected: anySignedIn },
  { url: '/web/notice/queryNotices', expected: anySignedIn },
  {
    url: '/web/notice/createNotice',
    body: (_f, actor) => ({ title: `by ${actor}`, body: 'text' }),
    expected: adminOnly,
  },
  {
    url: '/web/notice/createNoticeUser',
    body: (f) => ({ notice_id: f.noticeId }),
    // Guests mark only their own reading (see notice.ts); A's marks are checked below.
    expected: { ...anySignedIn, editorA: ok },
  },
  // JSON instead of multipart: the level is checked before the body is read.
  { url: '/web/upload/uploadJpg', body: () => ({}), expected: editorsOnly(validation) },
  {
    url: '/web/user/updateUserPassword',
    body: (f) => ({ oldPassword: f.editorA.password, password: 'Changed-By-Walk-4' }),
    expected: { ...editorsOnly(validation), editorA: ok },
  },
  {
    // enabling an enabled account: the level is what is walked, A's sessions stay
    url: '/web/user/disableUser',
    body: (f) => ({ id: f.ids.editorA, disabled: false }),
    expected: adminOnly,
  },
  {
    url: '/web/user/deleteUser',
    body: (f) => ({ id: f.ids.editorA }),
    expected: { ...adminOnly, admin: ok },
  },
  { url: '/web/logout', expected: { ...anySignedIn, editorA: timeout } },
]

describe('access-control walk over the account routes', () => {
  let testApp: TestApp
  let fixture: Fixture

  /** The account tables as they stand: a refused call must leave them exactly so. */
  const snapshot = async () => {
    const { db } = testApp.app.deps.database
    return {
      users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
      roles: await db.selectFrom('roles').selectAll().orderBy('id').execute(),
      userRoles: await db.selectFrom('user_roles').selectAll().orderBy('user_id').execute(),
      notices: await db.selectFrom('notices').selectAll().orderBy('id').execute(),
      noticeReads: await db
        .selectFrom('notice_reads')
        .selectAll()
        .orderBy('notice_id')
        .orderBy('user_id')
        .execute(),
    }
  }

  beforeAll(async () => {
    testApp = await createTestApp()
    const { app } = testApp
    const adminToken = await signIn(app, testAdmin)
    const editorA = {
      name: 'editor-a',
      password: 'Editor-A-Pass-11',
      tel: '01055550001',
      email: 'a@example.com',
    }
    const editorB = { name: 'editor-b', password: 'Editor-B-Pass-22' }
    const a = await callApi<ManagedUser>(app, {
      url: '/web/user/insertUser',
      token: adminToken,
      json: editorA,
    })
    const b = await callApi<ManagedUser>(app, {
      url: '/web/user/insertUser',
      token: adminToken,
      json: { ...editorB, tel: '01055550002' },
    })
    const guest = await callApi<LoginDatum>(app, { url: '/web/login/guest', json: {} })
    const tokenA = await signIn(app, editorA)
    const { png } = await sampleFiles()
    const upload = await postMultipart<UploadJpgDatum>(app, '/web/upload/uploadJpg', tokenA, [
      { name: 'file', value: png, fileName: 'a.png', contentType: 'image/png' },
    ])
    const notice = await callApi<{ id: string }>(app, {
      url: '/web/notice/createNotice',
      token: adminToken,
      json: { title: 'Walk', body: 'For the walk' },
    })
    const role = await callApi<Role>(app, {
      url: '/web/role/add',
      token: adminToken,
      json: { name: 'walk-custom' },
    })
    const admin = await callApi<User>(app, { url: '/web/user/findUserName', token: adminToken })
    fixture = {
      tokens: {
        anonymous: undefined,
        guest: guest.envelope.datum.token,
        editorA: tokenA,
        editorB: await signIn(app, editorB),
        admin: adminToken,
      },
      ids: {
        guest: guest.envelope.datum.user.id,
        editorA: a.envelope.datum.id,
        editorB: b.envelope.datum.id,
        admin: admin.envelope.datum.id,
      },
      editorA,
      avatarOfA: `${upload.envelope.datum.rootPath}${upload.envelope.datum.jpgName}`,
      noticeId: notice.envelope.datum.id,
      customRoleId: role.envelope.datum.id,
    }
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers every actor what the table says, in order', async () => {
    const mismatches: string[] = []
    for (const row of walk) {
      for (const [index, actor] of actors.entries()) {
        // Each actor has its own address so per-address limits never blur the picture; codes
        // for A's phone and address, and failed sign-ins, are a resend countdown apart.
        if (row.url.startsWith('/web/register/verification') || row.url === '/web/login') {
          testApp.clock.advanceMs(61_000)
        }
        const before = await snapshot()
        const answer = await callFrom(testApp.app, {
          method: row.method ?? 'POST',
          url: row.url,
          clientAddress: `198.51.100.${index + 1}`,
          ...(fixture.tokens[actor] === undefined ? {} : { token: fixture.tokens[actor] }),
          ...(row.method === 'GET' ? {} : { json: row.body?.(fixture, actor) ?? {} }),
        })
        if (answer.envelope.code !== row.expected[actor]) {
          mismatches.push(
            `${row.url} as ${actor}: expected ${row.expected[actor]}, got ${answer.envelope.code} (${answer.envelope.message})`,
          )
        }
        expect(answer.statusCode, `${row.url} as ${actor}`).toBeLessThan(500)
        if (answer.envelope.code !== ok) {
          expect(await snapshot(), `${row.url} as ${actor} changed data`).toEqual(before)
        }
        if (row.check !== undefined && actor !== 'anonymous' && answer.envelope.code === ok) {
          await row.check({ testApp, fixture, actor, datum: answer.envelope.datum })
        }
      }
    }
    expect(mismatches).toEqual([])
  })

  it('left A’s data changed only by A and the admin, and everyone else’s alone', async () => {
    const { app } = testApp
    const { users } = app.deps.repositories
    // Only the admin could delete A, at the end of the walk.
    expect(await users.findById(fixture.ids.editorA)).toBeUndefined()
    const adminToken = await signIn(app, testAdmin)
    // Read marks are each reader's own: B read the notice, the demo editor (not in the walk) not.
    const readOf = async (account: { name: string; password: string }) => {
      const token = await signIn(app, account)
      const list = await callApi<NoticeListItem[]>(app, { url: '/web/notice/queryNotices', token })
      return list.envelope.datum.find((notice) => notice.id === fixture.noticeId)?.is_read
    }
    expect(await readOf({ name: 'editor-b', password: 'Editor-B-Pass-22' })).toBe(true)
    expect(await readOf(testEditor)).toBe(false)
    // Nobody but the admin created accounts, roles or notices.
    const names = (
      await callApi<{ list: ManagedUser[] }>(app, {
        url: '/web/user/selectUser',
        token: adminToken,
        json: { keyword: 'walk-', pageSize: 100 },
      })
    ).envelope.datum.list.map((user) => user.name)
    expect(names).toEqual(['walk-admin'])
    const roles = (
      await callApi<Role[]>(app, {
        url: '/web/role/findAll',
        token: adminToken,
      })
    ).envelope.datum.map((role) => role.name)
    expect(roles.filter((name) => name.startsWith('role-by-'))).toEqual(['role-by-admin'])
    const notices = await callApi<NoticeListItem[]>(app, {
      url: '/web/notice/queryNotices',
      token: adminToken,
    })
    const titles = notices.envelope.datum.map((notice) => notice.title)
    expect(titles.filter((title) => title.startsWith('by '))).toEqual(['by admin'])
  })
})
