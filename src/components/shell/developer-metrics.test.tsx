import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { sceneStore } from '../../engine-bridge'
import { SceneStatusBar } from '../../pages/bim4/SceneStatusBar'
import { CityStatusBar } from '../../pages/city/CityStatusBar'
import { developerMetricsStorageKey, developerSettings } from '../../state/developer-settings'
import { DeveloperMetricsToggle } from './DeveloperMetricsToggle'

function renderBars() {
  return render(
    <I18nProvider i18n={i18n}>
      <DeveloperMetricsToggle />
      <SceneStatusBar />
      <CityStatusBar />
    </I18nProvider>,
  )
}

afterEach(() => {
  developerSettings.showsMetrics = false
  Object.assign(sceneStore.building, { render: null })
})

describe('developer metrics in the status bars', () => {
  it('are hidden by default and shown after the developer switch, which is remembered', async () => {
    localStorage.removeItem(developerMetricsStorageKey)
    act(() => {
      Object.assign(sceneStore.building, {
        render: {
          renderCount: 3,
          drawCalls: 42,
          triangles: 1234,
          geometryCount: 1,
          textureCount: 0,
          programCount: 1,
        },
      })
    })
    renderBars()
    expect(screen.queryByText(/\d+ draw calls/)).toBeNull()
    expect(screen.queryByText(/^Frame:/)).toBeNull()
    // the user-facing parts stay
    expect(screen.getByText('No models')).toBeTruthy()
    expect(screen.getByText(/Tiles loaded/)).toBeTruthy()

    const toggle = screen.getByRole('checkbox', { name: /Show rendering metrics/ })
    expect((toggle as HTMLInputElement).checked).toBe(false)
    await userEvent.click(toggle)
    expect(await screen.findByText(/42 draw calls · 1234 triangles/)).toBeTruthy()
    expect(screen.getByText(/^Frame: .* ms$/)).toBeTruthy()
    expect(localStorage.getItem(developerMetricsStorageKey)).toBe('1')

    await userEvent.click(toggle)
    expect(screen.queryByText(/\d+ draw calls/)).toBeNull()
    expect(localStorage.getItem(developerMetricsStorageKey)).toBeNull()
  })
})
