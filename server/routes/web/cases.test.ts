import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CaseDetail, CaseMenu } from '../../../contract/cases'
import type { Project, ProjectTokenDatum } from '../../../contract/project'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { createProject, sampleFiles, signInNewUser, uploadImage } from './project-test-kit'

/**
 * The curated project cases (SPEC §7 `/case` menu and detail) on a real database: admins add,
 * change, order and delete categories and cases; everyone signed in reads the gallery; making a
 * project a case opens it to guests, taking it out closes it again.
 */
describe('project cases (/case menu and detail)', () => {
  let testApp: TestApp
  let admin: string
  let editor: string
  let guest: string

  beforeAll(async () => {
    testApp = await createTestApp()
    admin = await signIn(testApp.app, testAdmin)
    editor = await signIn(testApp.app, testEditor)
    guest = await signInNewUser(testApp.app, 'cases-guest', 'guest')
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const call = <Datum>(path: string, json: unknown, token?: string) =>
    callApi<Datum>(testApp.app, {
      url: `/web/case/${path}`,
      json,
      ...(token === undefined ? {} : { token }),
    })
  const gallery = async (token: string) =>
    (await call<CaseDetail[]>('findCaseDetail', {}, token)).envelope.datum
  const guestToken = (projectId: string) =>
    callApi<ProjectTokenDatum>(testApp.app, {
      url: '/web/project/getPTokenByprojectId',
      token: guest,
      json: { id: projectId },
    })

  it('lists the seeded cases, uncategorised, to every signed-in role, and to nobody else', async () => {
    for (const token of [admin, editor, guest]) {
      const details = await gallery(token)
      expect(details.map((detail) => [detail.title, detail.menu_id, detail.sort_order])).toEqual([
        ['Dragon tileset (3D Tiles)', null, 0],
        ['House (SBM building)', null, 1],
      ])
      expect(details[1]!.project.kind).toBe('building')
      expect(details[1]!.cover).toMatch(/^\/web\/files\//)
    }
    const anonymous = await call('findCaseDetail', {})
    expect(anonymous.statusCode).toBe(401)
  })

  it('lets only admins change the gallery', async () => {
    const project = await createProject(testApp.app, editor, { kind: 'building', name: 'Mine' })
    const calls: [string, unknown][] = [
      ['addCaseMenu', { name: 'Offices' }],
      ['updateCaseMenu', { id: 'x', name: 'Y' }],
      ['deleteCaseMenu', { id: 'x' }],
      ['addCaseDetail', { project_id: project.id }],
      ['updateCaseDetail', { id: 'x', title: 'Y' }],
      ['deleteCaseDetail', { id: 'x' }],
    ]
    for (const [path, body] of calls) {
      for (const token of [editor, guest]) {
        const answer = await call(path, body, token)
        expect({ path, status: answer.statusCode }).toEqual({ path, status: 403 })
      }
      expect({ path, status: (await call(path, body)).statusCode }).toEqual({ path, status: 401 })
    }
    expect((await gallery(admin)).map((detail) => detail.project_id)).not.toContain(project.id)
  })

  it('makes any project a case in a category, reorders, and takes it out again', async () => {
    const project = await createProject(testApp.app, editor, {
      kind: 'building',
      name: 'Lobby',
      description: 'The editor’s own lobby',
    })
    // not a case yet: a guest may not open it
    expect((await guestToken(project.id)).statusCode).toBe(403)

    const offices = (await call<CaseMenu>('addCaseMenu', { name: 'Offices' }, admin)).envelope.datum
    const campuses = (
      await call<CaseMenu>('addCaseMenu', { name: 'Campuses', sort_order: 0 }, admin)
    ).envelope.datum
    const menus = (await call<CaseMenu[]>('findCaseMenu', {}, guest)).envelope.datum
    expect(menus.map((menu) => [menu.name, menu.sort_order])).toEqual([
      ['Campuses', 0],
      ['Offices', 1],
    ])
    expect(offices.case_count).toBe(0)

    const cover = await uploadImage(testApp.app, admin, (await sampleFiles()).png)
    const added = await call<CaseDetail>(
      'addCaseDetail',
      { project_id: project.id, menu_id: offices.id, cover_uuid: cover.uuid },
      admin,
    )
    expect(added.envelope.code).toBe('0')
    expect(added.envelope.datum).toMatchObject({
      title: 'Lobby',
      description: 'The editor’s own lobby',
      menu_id: offices.id,
      cover_uuid: cover.uuid,
      sort_order: 0,
    })
    expect(added.envelope.datum.cover).toBe(`/web/files/${cover.uuid}.png`)
    // a case: guests open it (the preview of "more cases" starts with this token)
    expect((await guestToken(project.id)).envelope.code).toBe('0')
    const guestView = (await gallery(guest)).find((detail) => detail.project_id === project.id)!
    expect(guestView.project.permissions).toMatchObject({ canRead: true, canEdit: false })

    // a second time is a conflict, naming the field
    const again = await call('addCaseDetail', { project_id: project.id }, admin)
    expect([again.statusCode, again.envelope.messageId]).toEqual([409, 'case.alreadyCase'])

    // the seeded house goes first in Offices, then the categories swap places
    const house = (await gallery(admin)).find((detail) => detail.title === 'House (SBM building)')!
    const moved = await call<CaseDetail>(
      'updateCaseDetail',
      { id: house.id, menu_id: offices.id, sort_order: 0, title: 'Model house' },
      admin,
    )
    expect(moved.envelope.datum).toMatchObject({ title: 'Model house', menu_id: offices.id })
    await call('updateCaseMenu', { id: offices.id, sort_order: 0 }, admin)
    expect(
      (await gallery(guest)).map((detail) => [detail.title, detail.menu_id, detail.sort_order]),
    ).toEqual([
      ['Model house', offices.id, 0],
      ['Lobby', offices.id, 1],
      ['Dragon tileset (3D Tiles)', null, 0],
    ])
    const officesNow = (await call<CaseMenu[]>('findCaseMenu', {}, admin)).envelope.datum
    expect(officesNow.map((menu) => [menu.name, menu.case_count])).toEqual([
      ['Offices', 2],
      ['Campuses', 0],
    ])

    // deleting a category keeps its cases, uncategorised, after those already there
    expect((await call('deleteCaseMenu', { id: offices.id }, admin)).envelope.code).toBe('0')
    expect(
      (await gallery(admin)).map((detail) => [detail.title, detail.menu_id, detail.sort_order]),
    ).toEqual([
      ['Dragon tileset (3D Tiles)', null, 0],
      ['Model house', null, 1],
      ['Lobby', null, 2],
    ])
    expect(
      (await call<CaseMenu[]>('findCaseMenu', {}, admin)).envelope.datum.map((menu) => [
        menu.name,
        menu.sort_order,
      ]),
    ).toEqual([['Campuses', 0]])

    // out of the gallery: private again
    const lobby = (await gallery(admin)).find((detail) => detail.project_id === project.id)!
    expect((await call('deleteCaseDetail', { id: lobby.id }, admin)).envelope.code).toBe('0')
    expect((await gallery(guest)).map((detail) => detail.project_id)).not.toContain(project.id)
    expect((await guestToken(project.id)).statusCode).toBe(403)
    const owner = await callApi<Project>(testApp.app, {
      url: '/web/project/findProject',
      token: editor,
      json: { id: project.id },
    })
    expect(owner.envelope.datum.is_case).toBe(false)
  })

  it('refuses bad input with a clear code and changes nothing', async () => {
    const before = await gallery(admin)
    const house = before.find((detail) => detail.project.kind === 'building')!
    const refusals: [string, unknown, number, string][] = [
      ['addCaseMenu', { name: '' }, 400, 'validation.invalidFields'],
      ['addCaseMenu', { name: 'x'.repeat(41) }, 400, 'validation.invalidFields'],
      ['updateCaseMenu', { id: 'no-such-menu', name: 'Y' }, 404, 'case.menuNotFound'],
      ['addCaseDetail', { project_id: 'no-such-project' }, 404, 'project.notFound'],
      ['updateCaseDetail', { id: house.id, menu_id: 'no-such-menu' }, 404, 'case.menuNotFound'],
      [
        'updateCaseDetail',
        { id: house.id, cover_uuid: crypto.randomUUID() },
        400,
        'case.noSuchCover',
      ],
      [
        'updateCaseDetail',
        { id: house.id, title: 'x'.repeat(61) },
        400,
        'validation.invalidFields',
      ],
      ['updateCaseDetail', { id: house.id, sort_order: -1 }, 400, 'validation.invalidFields'],
      ['deleteCaseDetail', { id: 'no-such-case' }, 404, 'case.notFound'],
    ]
    for (const [path, body, status, messageId] of refusals) {
      const answer = await call(path, body, admin)
      expect({
        path,
        body,
        status: answer.statusCode,
        messageId: answer.envelope.messageId,
      }).toEqual({
        path,
        body,
        status,
        messageId,
      })
    }
    expect(await gallery(admin)).toEqual(before)
  })

  it('deletes a project’s case with the project', async () => {
    const project = await createProject(testApp.app, editor, {
      kind: 'building',
      name: 'Short-lived',
    })
    await call('addCaseDetail', { project_id: project.id }, admin)
    expect((await gallery(admin)).map((detail) => detail.project_id)).toContain(project.id)
    const deleted = await callApi(testApp.app, {
      url: '/web/project/deleteProject',
      token: editor,
      json: { id: project.id },
    })
    expect(deleted.envelope.code).toBe('0')
    expect((await gallery(admin)).map((detail) => detail.project_id)).not.toContain(project.id)
  })
})
