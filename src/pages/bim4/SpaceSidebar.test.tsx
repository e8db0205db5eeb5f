import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { SpaceSidebar } from './SpaceSidebar'

describe('SpaceSidebar (SPEC §2 space project sidebar)', () => {
  it('offers the modules in order, marks the current one, and moves focus with the arrow keys', async () => {
    const onSwitchProject = vi.fn()
    const onBack = vi.fn()
    renderWithI18n(
      <SpaceSidebar currentModuleId="gml" onSwitchProject={onSwitchProject} onBack={onBack} />,
    )
    const navigation = screen.getByRole('navigation', { name: 'Space project' })
    const links = navigation.querySelectorAll('a')
    expect(Array.from(links, (link) => link.textContent)).toEqual([
      'Model',
      'POI',
      'GML path',
      'Location',
      'Download',
      'Template',
      'Style',
      'Visit',
    ])
    const current = screen.getByRole('link', { name: 'GML path' })
    expect(current.getAttribute('aria-current')).toBe('page')
    expect(current.getAttribute('href')).toContain('/bim4/gml/path')

    current.focus()
    await userEvent.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Location' }))
    await userEvent.keyboard('{End}')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back' }))
    await userEvent.keyboard('{Enter}')
    expect(onBack).toHaveBeenCalledOnce()
    await userEvent.click(screen.getByRole('button', { name: 'Switch project' }))
    expect(onSwitchProject).toHaveBeenCalledOnce()
  })
})
