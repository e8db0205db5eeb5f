import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiControlBar, type PoiControlBarProps } from './PoiControlBar'
import { nextActiveTool, type PoiModeTool } from './poi-control'

function Bar(props: Partial<PoiControlBarProps>) {
  const [heading, setHeading] = useState(0)
  const [altitude, setAltitude] = useState(0)
  return (
    <PoiControlBar
      headingDegrees={heading}
      onHeadingChange={setHeading}
      altitudeMillimeters={altitude}
      onAltitudeChange={setAltitude}
      canUndo
      onUndo={() => {}}
      onDelete={() => {}}
      onClose={() => {}}
      {...props}
    />
  )
}

/** An editor that owns the active tool, starting with rotate. */
function Owned({
  onClose,
  onActiveToolChange,
}: {
  onClose: () => void
  onActiveToolChange: (tool: PoiModeTool | null) => void
}) {
  const [active, setActive] = useState<PoiModeTool | null>('rotate')
  return (
    <Bar
      activeTool={active}
      onActiveToolChange={(next) => {
        setActive(next)
        onActiveToolChange(next)
      }}
      onClose={onClose}
    />
  )
}

const tool = (name: string) => screen.getByRole('button', { name })

describe('POI control rules (SPEC §4)', () => {
  it('keeps one mode tool at a time; pressing it again or a one-shot action leaves it', () => {
    expect(nextActiveTool(null, 'move')).toBe('move')
    expect(nextActiveTool('move', 'rotate')).toBe('rotate')
    expect(nextActiveTool('rotate', 'rotate')).toBeNull()
    expect(nextActiveTool('altitude', 'undo')).toBeNull()
    expect(nextActiveTool('move', 'delete')).toBeNull()
  })
})

describe('PoiControlBar', () => {
  it('shows the five tools and the close button in a toolbar, nothing pressed at first', () => {
    renderWithI18n(<Bar />)
    const bar = screen.getByRole('toolbar', { name: 'POI control' })
    expect(bar).toBeTruthy()
    for (const name of ['Move', 'Altitude', 'Rotate'])
      expect(tool(name).getAttribute('aria-pressed')).toBe('false')
    expect(tool('Undo')).toBeTruthy()
    expect(tool('Delete')).toBeTruthy()
    expect(tool('Close POI control')).toBeTruthy()
    expect(screen.queryByRole('slider')).toBeNull()
  })

  it('opens the rotate slider (−180..180 step 15) and closes it when another tool is chosen', async () => {
    const onHeadingCommit = vi.fn()
    renderWithI18n(<Bar onHeadingCommit={onHeadingCommit} />)
    await userEvent.click(tool('Rotate'))
    expect(tool('Rotate').getAttribute('aria-pressed')).toBe('true')
    const slider = screen.getByRole('slider', { name: 'Rotation' })
    expect(slider.getAttribute('aria-valuemin')).toBe('-180')
    expect(slider.getAttribute('aria-valuemax')).toBe('180')
    slider.focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    expect(onHeadingCommit).toHaveBeenLastCalledWith(30)
    expect(slider.getAttribute('aria-valuetext')).toBe('30°')

    await userEvent.click(tool('Move'))
    expect(tool('Rotate').getAttribute('aria-pressed')).toBe('false')
    expect(tool('Move').getAttribute('aria-pressed')).toBe('true')
    expect(screen.queryByRole('slider')).toBeNull()
  })

  it('opens the altitude slider (−500..500 mm, step 15 through 0)', async () => {
    const onAltitudeCommit = vi.fn()
    renderWithI18n(<Bar onAltitudeCommit={onAltitudeCommit} />)
    await userEvent.click(tool('Altitude'))
    const slider = screen.getByRole('slider', { name: 'Altitude' })
    expect(slider.getAttribute('aria-valuemin')).toBe('-500')
    expect(slider.getAttribute('aria-valuemax')).toBe('500')
    slider.focus()
    await userEvent.keyboard('{ArrowLeft}')
    expect(onAltitudeCommit).toHaveBeenLastCalledWith(-15)
    expect(slider.getAttribute('aria-valuetext')).toBe('-15 mm')
    // Pressing the active tool again leaves it and closes its slider.
    await userEvent.click(tool('Altitude'))
    expect(screen.queryByRole('slider')).toBeNull()
  })

  it('runs undo and delete once and leaves the active tool', async () => {
    const onUndo = vi.fn()
    const onDelete = vi.fn()
    renderWithI18n(<Bar onUndo={onUndo} onDelete={onDelete} />)
    await userEvent.click(tool('Rotate'))
    await userEvent.click(tool('Undo'))
    expect(onUndo).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('slider')).toBeNull()
    expect(tool('Undo').getAttribute('aria-pressed')).toBeNull()
    await userEvent.click(tool('Delete'))
    expect(onDelete).toHaveBeenCalledTimes(1)
  })

  it('disables undo with nothing to undo, and every tool with nothing selected', () => {
    const { unmount } = renderWithI18n(<Bar canUndo={false} />)
    expect((tool('Undo') as HTMLButtonElement).disabled).toBe(true)
    expect((tool('Move') as HTMLButtonElement).disabled).toBe(false)
    unmount()
    renderWithI18n(<Bar isDisabled />)
    for (const name of ['Move', 'Altitude', 'Rotate', 'Undo', 'Delete'])
      expect((tool(name) as HTMLButtonElement).disabled).toBe(true)
    expect((tool('Close POI control') as HTMLButtonElement).disabled).toBe(false)
  })

  it('clears the active tool when closed, and tells the editor that owns the tool', async () => {
    const onClose = vi.fn()
    const onActiveToolChange = vi.fn()
    renderWithI18n(<Owned onClose={onClose} onActiveToolChange={onActiveToolChange} />)
    expect(screen.getByRole('slider', { name: 'Rotation' })).toBeTruthy()
    await userEvent.click(tool('Close POI control'))
    expect(onActiveToolChange).toHaveBeenLastCalledWith(null)
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('slider')).toBeNull()
  })

  it('is keyboard reachable: arrows move between tools, Enter chooses, Escape leaves then closes', async () => {
    const onClose = vi.fn()
    renderWithI18n(<Bar onClose={onClose} />)
    tool('Move').focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    expect(document.activeElement).toBe(tool('Rotate'))
    await userEvent.keyboard('{Enter}')
    expect(tool('Rotate').getAttribute('aria-pressed')).toBe('true')
    await userEvent.tab()
    await userEvent.tab()
    await userEvent.tab()
    await userEvent.tab()
    expect(document.activeElement?.getAttribute('role')).toBe('slider')
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('slider')).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
    tool('Move').focus()
    await userEvent.keyboard('{ArrowLeft}')
    expect(document.activeElement).toBe(tool('Close POI control'))
    await userEvent.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledTimes(1)
  })
})
