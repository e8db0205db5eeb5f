import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type EmbeddedProductsDatum,
  embeddedProductRoutes,
  shadowEditorAddress,
} from '../../../contract/embedded-products'
import { ConfigError, loadConfig } from '../../config'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { signInNewUser } from './project-test-kit'

/**
 * The embedded products (issue 17 item 9, contract/embedded-products.ts): ThingsBoard's device
 * and rule-chain pages and the shadow-render editor, at addresses from the configuration; their
 * origins (and only for frames) in the CSP's frame-src; nothing configured answers null.
 */

const path = embeddedProductRoutes.embeddedProducts.path

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string[]> {
  const parsed = new Map<string, string[]>()
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) parsed.set(name, values)
  }
  return parsed
}

describe('embedded products configuration', () => {
  it('reads the addresses and paths, and refuses what is not an http(s) address or a path', () => {
    const config = loadConfig({
      THINGSBOARD_URL: 'https://tb.example.com:8443/tb/',
      THINGSBOARD_DEVICES_PATH: '/devices',
      SHADOW_EDITOR_URL: 'http://editor.example.com/editor.html',
    })
    expect(config.embeddedProducts).toEqual({
      thingsboardUrl: 'https://tb.example.com:8443/tb/',
      thingsboardDevicesPath: '/devices',
      thingsboardRuleChainsPath: '/ruleChains',
      shadowEditorUrl: 'http://editor.example.com/editor.html',
    })
    expect(loadConfig({}).embeddedProducts).toMatchObject({
      thingsboardUrl: undefined,
      thingsboardDevicesPath: '/entities/devices',
      shadowEditorUrl: undefined,
    })
    for (const environment of [
      { THINGSBOARD_URL: 'ftp://tb.example.com' },
      { THINGSBOARD_URL: 'https://admin:secret@tb.example.com' },
      { THINGSBOARD_URL: 'tb.example.com' },
      { SHADOW_EDITOR_URL: 'javascript:alert(1)' },
      { THINGSBOARD_RULE_CHAINS_PATH: 'ruleChains' },
    ]) {
      expect(() => loadConfig(environment), JSON.stringify(environment)).toThrow(ConfigError)
    }
    expect(() => loadConfig({ THINGSBOARD_URL: 'https://admin:secret@tb.example.com' })).toThrow(
      /THINGSBOARD_URL/,
    )
  })

  it("addresses the shadow-render editor with the project's name, id, type json, url and token", () => {
    const address = new URL(
      shadowEditorAddress('https://editor.example.com/editor.html?lang=ko', {
        id: 'p-1',
        name: '서울 타워 & Co',
        sceneUrl: 'http://twin.local/web/files/structure.json',
        projectToken: 'tok-1',
      }),
    )
    expect(address.origin + address.pathname).toBe('https://editor.example.com/editor.html')
    expect(Object.fromEntries(address.searchParams)).toEqual({
      lang: 'ko',
      name: '서울 타워 & Co',
      id: 'p-1',
      type: 'json',
      url: 'http://twin.local/web/files/structure.json',
      token: 'tok-1',
    })
  })
})

describe('GET /web/system/embeddedProducts', () => {
  let plain: TestApp
  let configured: TestApp

  beforeAll(async () => {
    plain = await createTestApp()
    configured = await createTestApp({
      env: {
        THINGSBOARD_URL: 'https://tb.example.com:8443/tb',
        SHADOW_EDITOR_URL: 'https://editor.example.com/shadow/editor.html',
      },
    })
  }, 60_000)

  afterAll(async () => {
    await plain?.close()
    await configured?.close()
  })

  it('answers null for products not configured, and frames only the server itself', async () => {
    const token = await signIn(plain.app, testEditor)
    const answer = await callApi<EmbeddedProductsDatum>(plain.app, {
      method: 'GET',
      url: path,
      token,
    })
    expect(answer.envelope).toMatchObject({
      code: '0',
      datum: { thingsboard: null, shadowEditor: null },
    })
    expect(directives(answer.headers['content-security-policy']).get('frame-src')).toEqual([
      "'self'",
    ])
  })

  it('answers the configured pages to signed-in users (guests too), and no one else', async () => {
    const token = await signIn(configured.app, testEditor)
    const guest = await signInNewUser(configured.app, 'embedded-guest', 'guest')
    for (const caller of [token, guest]) {
      const answer = await callApi<EmbeddedProductsDatum>(configured.app, {
        method: 'GET',
        url: path,
        token: caller,
      })
      expect(answer.envelope.datum).toEqual({
        thingsboard: {
          devicesUrl: 'https://tb.example.com:8443/tb/entities/devices',
          ruleChainsUrl: 'https://tb.example.com:8443/tb/ruleChains',
        },
        shadowEditor: { url: 'https://editor.example.com/shadow/editor.html' },
      })
    }
    const anonymous = await callApi(configured.app, { method: 'GET', url: path })
    expect(anonymous.statusCode).toBe(401)
    expect(JSON.stringify(anonymous.envelope)).not.toContain('tb.example.com')
  })

  it('lets the browser frame the configured origins, and use them for nothing else', async () => {
    const answer = await configured.app.inject({ method: 'GET', url: '/web/health' })
    const policy = directives(answer.headers['content-security-policy'])
    expect(policy.get('frame-src')).toEqual([
      "'self'",
      'https://tb.example.com:8443',
      'https://editor.example.com',
    ])
    for (const name of ['connect-src', 'img-src', 'script-src', 'frame-ancestors']) {
      expect(policy.get(name)?.join(' '), name).not.toContain('example.com')
    }
  })
})
