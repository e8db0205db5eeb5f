import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { Project } from '../../api/project'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { ModelConfigCasesPage } from './ModelConfigCasesPage'

const project = (id: string, name: string, kind: 'city' | 'building') =>
  ({ id, name, kind, prewiewpath: `/web/files/${id}.png`, prewiewpath_thumb: null }) as Project

describe('ModelConfigCasesPage (/modelConfig, the metro-style case list)', () => {
  it('shows each case as a tile, the first one wide, and opens the case chosen', async () => {
    const cases = [project('c1', 'Dragon city', 'city'), project('c2', 'Office', 'building')]
    const open = vi.fn(async () => undefined)
    renderWithI18n(<ModelConfigCasesPage load={async () => cases} open={open} />)
    const tiles = await screen.findAllByTestId('model-config-case')
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      'Dragon cityCity scene',
      'OfficeBuilding scene',
    ])
    expect(tiles[0]?.className).toContain('ts-metro__tile--wide')
    expect(tiles[1]?.className).toContain('ts-metro__tile--building')
    expect(tiles[0]?.querySelector('img')?.getAttribute('src')).toBe('/web/files/c1.png')
    await userEvent.click(screen.getByRole('button', { name: 'Open the case Office' }))
    await waitFor(() => expect(open).toHaveBeenCalledWith(cases[1]))
  })

  it('offers the three tools as tiles and says when there are no cases', async () => {
    renderWithI18n(<ModelConfigCasesPage load={async () => []} open={vi.fn()} />)
    expect(await screen.findByText('No cases yet')).toBeTruthy()
    for (const name of ['Structure merge', 'Structure add', 'Format conversion']) {
      expect(screen.getByRole('button', { name: new RegExp(name) })).toBeTruthy()
    }
    await userEvent.click(screen.getByRole('button', { name: /Structure add/ }))
    expect(window.location.hash).toBe('#/modelConfig/add')
  })
})
