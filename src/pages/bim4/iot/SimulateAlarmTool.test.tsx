import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Device } from '../../../api/iot'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { iotStore } from './iot-store'
import { SimulateAlarmTool } from './SimulateAlarmTool'

const device = (id: string, name: string) => ({ id, name, poi_id: `poi-${id}` }) as Device

/** Records each call's path and JSON body; answers an alarm record. */
function stubServer() {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = init?.body
      const body =
        sent instanceof FormData || sent instanceof URLSearchParams
          ? Object.fromEntries(sent as unknown as Iterable<[string, string]>)
          : JSON.parse(String(sent ?? '{}'))
      calls.push({ path, body })
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum: { id: 'alarm-1' } }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
  iotStore.devices = []
})

describe('SimulateAlarmTool (visit tools, SPEC §2)', () => {
  it('raises the chosen alarm code for the chosen device through the alarm call', async () => {
    const calls = stubServer()
    iotStore.devices = [device('d1', 'Lobby sensor'), device('d2', 'Hall sensor')]
    renderWithI18n(<SimulateAlarmTool canEdit />)
    await userEvent.click(screen.getByRole('combobox', { name: 'Device' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Hall sensor' }))
    await userEvent.click(screen.getByRole('combobox', { name: 'Alarm' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Fault' }))
    await userEvent.click(screen.getByRole('button', { name: 'Raise the alarm' }))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(Number(calls[0]?.body.code)).toBe(11)
    expect(calls[0]).toMatchObject({
      path: '/web/alarmrecord/add',
      body: { device_id: 'd2', code: expect.anything() },
    })
  })

  it('says where devices come from when there are none, and is read-only for readers', () => {
    const { rerender } = renderWithI18n(<SimulateAlarmTool canEdit />)
    expect(screen.getByText(/No device yet/)).toBeTruthy()
    iotStore.devices = [device('d1', 'Lobby sensor')]
    rerender(<SimulateAlarmTool canEdit={false} />)
    expect(screen.getByRole('button', { name: 'Raise the alarm' }).hasAttribute('disabled')).toBe(
      true,
    )
    expect(screen.getByText('Only editors of this project can raise alarms.')).toBeTruthy()
  })
})
