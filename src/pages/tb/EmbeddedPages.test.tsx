import { i18n } from '@lingui/core'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EmbeddedProductsDatum } from '../../../contract/embedded-products'
import { messages as koMessages } from '../../i18n/locales/ko/messages.po'
import { messages as zhMessages } from '../../i18n/locales/zh/messages.po'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { ShadowEditorPage } from './ShadowEditorPage'
import { TbDevicesPage, TbRuleChainsPage } from './ThingsboardPage'

const project = {
  id: 'p-1',
  name: 'Harbour tower',
  shell_json_path: '/web/building/structure/p-1.json',
}

/** Answers the embedded products, the project list and project tokens; records each path. */
function stubServer(products: EmbeddedProductsDatum) {
  const paths: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://localhost').pathname
      paths.push(path)
      const datum =
        path === '/web/system/embeddedProducts'
          ? products
          : path === '/web/project/findProjectAll'
            ? { list: [project], total: 1, pageNo: 1, pageSize: 100 }
            : { project_id: 'p-1', project_token: 'tok-1', expires_at: '2026-12-27T00:00:00.000Z' }
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return paths
}

const none: EmbeddedProductsDatum = { thingsboard: null, shadowEditor: null }
const configured: EmbeddedProductsDatum = {
  thingsboard: {
    devicesUrl: 'https://tb.example.com/entities/devices',
    ruleChainsUrl: 'https://tb.example.com/ruleChains',
  },
  shadowEditor: { url: 'https://editor.example.com/editor.html' },
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('/tbPage pages (issue 17 item 9)', () => {
  it('embeds the configured ThingsBoard device list and rule chains', async () => {
    stubServer(configured)
    const { unmount } = renderWithI18n(<TbDevicesPage />)
    const devices = await screen.findByTitle('ThingsBoard devices')
    expect(devices.getAttribute('src')).toBe('https://tb.example.com/entities/devices')
    unmount()
    renderWithI18n(<TbRuleChainsPage />)
    const rules = await screen.findByTitle('ThingsBoard rule chains')
    expect(rules.getAttribute('src')).toBe('https://tb.example.com/ruleChains')
    expect(screen.getByRole('link', { name: 'Open in a new tab' }).getAttribute('href')).toBe(
      'https://tb.example.com/ruleChains',
    )
  })

  it('explains how to configure ThingsBoard when it is not, in Korean and Chinese too', async () => {
    stubServer(none)
    const { unmount } = renderWithI18n(<TbDevicesPage />)
    expect(await screen.findByText(/No ThingsBoard address is configured/)).toBeTruthy()
    expect(screen.getByText(/THINGSBOARD_URL=https:\/\/thingsboard\.example\.com/)).toBeTruthy()
    expect(screen.queryByTitle('ThingsBoard devices')).toBeNull()
    unmount()
    for (const [locale, messages, script] of [
      ['ko', koMessages, /\p{Script=Hangul}/u],
      ['zh', zhMessages, /\p{Script=Han}/u],
    ] as const) {
      await act(async () => i18n.loadAndActivate({ locale, messages }))
      const { unmount: close } = renderWithI18n(<TbRuleChainsPage />)
      const explanation = await screen.findByTestId('embedded-not-configured')
      const paragraphs = [...explanation.querySelectorAll('p, h2')].map((node) => node.textContent)
      expect(paragraphs.length).toBeGreaterThan(2)
      for (const text of paragraphs) expect(text, `${locale}: ${text}`).toMatch(script)
      expect(explanation.textContent).toContain('THINGSBOARD_URL=')
      close()
    }
  })

  it('opens the shadow-render editor on the chosen project with name, id, type json, url and token', async () => {
    const paths = stubServer(configured)
    renderWithI18n(<ShadowEditorPage params={{}} search="" />)
    await userEvent.click(await screen.findByRole('combobox', { name: 'Project' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Harbour tower' }))
    const frame = await screen.findByTitle('Shadow-render editor')
    const address = new URL(String(frame.getAttribute('src')))
    expect(address.origin + address.pathname).toBe('https://editor.example.com/editor.html')
    expect(Object.fromEntries(address.searchParams)).toEqual({
      name: 'Harbour tower',
      id: 'p-1',
      type: 'json',
      url: `${window.location.origin}/web/building/structure/p-1.json`,
      token: 'tok-1',
    })
    await waitFor(() => expect(paths).toContain('/web/project/getPTokenByprojectId'))
  })

  it('explains how to configure the shadow-render editor when it is not', async () => {
    const paths = stubServer(none)
    renderWithI18n(<ShadowEditorPage params={{}} search="project_id=p-1" />)
    expect(await screen.findByText(/No editor address is configured/)).toBeTruthy()
    expect(screen.getByText(/SHADOW_EDITOR_URL=/)).toBeTruthy()
    // no project token is issued for an editor that is not there
    expect(paths).not.toContain('/web/project/getPTokenByprojectId')
  })
})
