import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DownloadState, OfflinePackage } from '../../../contract/offline-package'
import { ConfirmHost } from '../../ui/confirm/ConfirmHost'
import { ToastHost } from '../../ui/toast/ToastHost'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { OfflinePackagePanel } from './OfflinePackagePanel'

/** An in-memory /bimBiz server; records the path of each call. */
function stubServer(answers: Record<string, () => unknown>) {
  const calls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://localhost').pathname.replace(
        /^\/web\/(bimBiz|orderManage)\//,
        '',
      )
      calls.push(path)
      const answer = answers[path]
      if (!answer) throw new Error(`no stub for ${path}`)
      const datum = answer()
      // a refusal is answered as the server sends it
      if (datum instanceof Response) return datum
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

const packageOf = (changes: Partial<OfflinePackage>): OfflinePackage => ({
  id: '6f1c1d7e-1111-4222-8333-944455556666',
  state: 'building',
  variant: 'full',
  is_watermarked: false,
  progress: null,
  size_bytes: null,
  entry_count: null,
  error_message_id: null,
  created_at: '2026-11-27T00:00:00.000Z',
  finished_at: null,
  download_url: null,
  file_name: '6f1c1d7e-1111-4222-8333-944455556666.zip',
  ...changes,
})

const stateOf = (changes: Partial<DownloadState>): DownloadState => ({
  project_id: 'p1',
  is_paid: true,
  allowed: 'full',
  unpaid_order_id: null,
  package: null,
  ...changes,
})

/** Three days of usage: 2 MB uploaded and 1 MB updated on the second, 4 POIs changed on the third. */
const usage = () => ({
  project_id: 'p1',
  metered_since: null,
  days: [
    { day: '2026-11-25', upload_bytes: 0, update_bytes: 0, configuration_operations: 0 },
    {
      day: '2026-11-26',
      upload_bytes: 2_097_152,
      update_bytes: 1_048_576,
      configuration_operations: 0,
    },
    { day: '2026-11-27', upload_bytes: 0, update_bytes: 0, configuration_operations: 4 },
  ],
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('offline package panel', () => {
  it('builds the package, shows its progress and then the download', async () => {
    let current = stateOf({})
    const calls = stubServer({
      checkSbkDownloadState: () => current,
      getUsageHistory: usage,
      buildSbkFile: () => {
        current = stateOf({ package: packageOf({ progress: 0.42 }) })
        return current.package
      },
    })
    renderWithI18n(<OfflinePackagePanel projectId="p1" projectName="Tower" />)
    expect(
      await screen.findByText(
        'This project is paid: its offline package can be built and downloaded.',
      ),
    ).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Build the offline package' }))
    expect(await screen.findByText('Building the offline package… 42 %')).toBeTruthy()
    expect(
      (screen.getByRole('button', { name: 'Build the offline package' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true)
    // the build ends: the next poll shows the download
    current = stateOf({
      package: packageOf({
        state: 'ready',
        progress: 1,
        size_bytes: 2_500_000,
        entry_count: 9,
        download_url: '/web/bimBiz/getSbkFile?project_id=p1&reqPaths=x.zip&grant=g',
      }),
    })
    const link = await screen.findByRole(
      'link',
      { name: 'Download the offline package' },
      {
        timeout: 5_000,
      },
    )
    expect(link.getAttribute('href')).toBe(
      '/web/bimBiz/getSbkFile?project_id=p1&reqPaths=x.zip&grant=g',
    )
    expect(screen.getByText(/The offline package is ready: 2\.\d MB, 9 files\./)).toBeTruthy()
    expect(calls.filter((path) => path === 'buildSbkFile')).toHaveLength(1)
    // the usage chart: a bar per day and row, each naming its day and value, and the totals
    expect(
      screen.getByText('Uploaded 2.0 MB, updated 1.0 MB, 4 configuration changes.'),
    ).toBeTruthy()
    const uploads = screen.getByRole('img', { name: 'Uploaded' })
    expect(uploads.querySelectorAll('rect')).toHaveLength(3)
    expect(uploads.querySelector('rect:nth-of-type(2) title')?.textContent).toBe(
      '2026-11-26: 2.0 MB',
    )
    const updates = screen.getByRole('img', { name: 'Updated' })
    expect(updates.querySelector('rect:nth-of-type(2) title')?.textContent).toBe(
      '2026-11-26: 1.0 MB',
    )
    // each row names its total, and the axis names the first and last day
    expect(uploads.parentElement?.textContent).toContain('2.0 MB')
    expect(screen.getByTestId('usage-axis').textContent).toBe('Nov 25Nov 27')
  })

  it('says an unpaid order blocks the download (§8) and offers no build', async () => {
    stubServer({
      getUsageHistory: usage,
      checkSbkDownloadState: () =>
        stateOf({
          is_paid: false,
          allowed: 'none',
          unpaid_order_id: 'o1',
          package: packageOf({ state: 'ready', variant: 'trial', is_watermarked: true }),
        }),
    })
    renderWithI18n(<OfflinePackagePanel projectId="p1" projectName="Tower" />)
    expect(await screen.findByText(/You have an order not paid\.\.\./)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Open the order' })).toBeTruthy()
    expect(
      (screen.getByRole('button', { name: 'Build the offline package' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true)
    expect(screen.queryByRole('link', { name: 'Download the offline package' })).toBeNull()
    expect(screen.getByText('Pay the open order to download this package again.')).toBeTruthy()
  })

  it('cancels a running build after asking, says it was cancelled and lets it be built again', async () => {
    let current = stateOf({ package: packageOf({ progress: 0.3 }) })
    const calls = stubServer({
      checkSbkDownloadState: () => current,
      getUsageHistory: usage,
      cancelSbkBuild: () => {
        current = stateOf({
          package: packageOf({ state: 'failed', error_message_id: 'offlinePackage.cancelled' }),
        })
        return current.package
      },
    })
    renderWithI18n(
      <>
        <OfflinePackagePanel projectId="p1" projectName="Tower" />
        <ConfirmHost />
      </>,
    )
    expect(await screen.findByText('Building the offline package… 30 %')).toBeTruthy()
    // asked first: keeping the build sends nothing
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the build' }))
    const question = await screen.findByRole('alertdialog')
    expect(question.textContent).toContain('Cancel building the offline package?')
    await userEvent.click(within(question).getByRole('button', { name: 'Keep building' }))
    expect(calls).not.toContain('cancelSbkBuild')
    expect(screen.getByText('Building the offline package… 30 %')).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: 'Cancel the build' }))
    const again = await screen.findByRole('alertdialog')
    await userEvent.click(within(again).getByRole('button', { name: 'Cancel the build' }))
    expect(
      await screen.findByText(
        'Building the offline package was cancelled. You can build it again.',
      ),
    ).toBeTruthy()
    expect(calls.filter((path) => path === 'cancelSbkBuild')).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Cancel the build' })).toBeNull()
    expect(
      (screen.getByRole('button', { name: 'Build the offline package' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false)
  })

  it('says a build that finished before the cancel reached it finished, not that something failed', async () => {
    let current = stateOf({ package: packageOf({ progress: 0.9 }) })
    stubServer({
      checkSbkDownloadState: () => current,
      getUsageHistory: usage,
      cancelSbkBuild: () => {
        current = stateOf({
          package: packageOf({
            state: 'ready',
            progress: 1,
            size_bytes: 2_400_000,
            entry_count: 9,
            download_url: '/web/bimBiz/getSbkFile?project_id=p1&reqPaths=x.zip&grant=g',
          }),
        })
        const refusal = {
          code: '1009',
          message: 'This offline package is no longer being built: nothing to cancel.',
          messageId: 'offlinePackage.notBuilding',
          params: {},
          datum: null,
        }
        return new Response(JSON.stringify(refusal), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        })
      },
    })
    renderWithI18n(
      <>
        <OfflinePackagePanel projectId="p1" projectName="Tower" />
        <ConfirmHost />
        <ToastHost />
      </>,
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the build' }))
    const question = await screen.findByRole('alertdialog')
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel the build' }))
    expect(
      await screen.findByText('The build had already finished before it could be cancelled.'),
    ).toBeTruthy()
    expect(screen.queryByText(/nothing to cancel/)).toBeNull()
    expect(await screen.findByText(/The offline package is ready/)).toBeTruthy()
  })

  it('shows why a build failed in the user language', async () => {
    stubServer({
      getUsageHistory: usage,
      checkSbkDownloadState: () =>
        stateOf({
          is_paid: false,
          allowed: 'trial',
          package: packageOf({
            state: 'failed',
            variant: 'trial',
            error_message_id: 'offlinePackage.interrupted',
          }),
        }),
    })
    renderWithI18n(<OfflinePackagePanel projectId="p1" projectName="Tower" />)
    expect(
      await screen.findByText(
        'Building the offline package was interrupted by a server restart. Please build it again.',
      ),
    ).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Build the trial package' })).toBeTruthy()
  })
})
