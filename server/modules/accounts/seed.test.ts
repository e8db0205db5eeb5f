import { afterEach, describe, expect, it } from 'vitest'
import { callApi, createTestApp, signIn, type TestApp } from '../../testing/test-app'
import { demoAccount, seedDatabase } from './seed'

describe('seedDatabase', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  const seed = (app: TestApp) =>
    seedDatabase({
      config: app.config,
      users: app.app.deps.repositories.users,
      usersService: app.app.deps.services.users,
    })

  it('creates the admin with a generated password, and the demo editor', async () => {
    testApp = await createTestApp({ seed: false, env: { ADMIN_NAME: 'chief', ADMIN_PASSWORD: '' } })
    const result = await seed(testApp)
    expect(result.hasSeeded).toBe(true)
    expect(result.generatedAdminPassword).toMatch(/^[\w-]{24}$/)
    const adminToken = await signIn(testApp.app, {
      name: 'chief',
      password: result.generatedAdminPassword as string,
    })
    const admin = await callApi(testApp.app, { url: '/web/user/findUserName', token: adminToken })
    expect(admin.envelope.datum).toMatchObject({ name: 'chief', role: 'admin' })
    const demoToken = await signIn(testApp.app, demoAccount)
    const demo = await callApi(testApp.app, { url: '/web/user/findUserName', token: demoToken })
    expect(demo.envelope.datum).toMatchObject({ name: 'demo', role: 'editor' })
  })

  it('uses ADMIN_PASSWORD when set and reports no generated password', async () => {
    testApp = await createTestApp({
      seed: false,
      env: { ADMIN_PASSWORD: 'operator-chosen', SEED_DEMO_USER: 'false' },
    })
    expect(await seed(testApp)).toEqual({ hasSeeded: true })
    await signIn(testApp.app, { name: 'admin', password: 'operator-chosen' })
    expect(await testApp.app.deps.repositories.users.findByName('demo')).toBeUndefined()
  })

  it('does nothing once any user exists', async () => {
    testApp = await createTestApp({ seed: false })
    await seed(testApp)
    expect(await seed(testApp)).toEqual({ hasSeeded: false })
    expect(await testApp.app.deps.repositories.users.countAll()).toBe(2)
  })
})
