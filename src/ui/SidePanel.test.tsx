import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { handleClickMaxMs, SidePanel, type SidePanelProps } from './SidePanel'
import { renderWithI18n } from './testing/render-with-i18n'

/** A clock the test moves by hand. */
function manualClock() {
  let nowMs = 1000
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms
    },
  }
}

function renderPanel(props: Partial<SidePanelProps> = {}) {
  const clock = manualClock()
  const onWidthChange = vi.fn()
  const onOpenChange = vi.fn()
  renderWithI18n(
    <SidePanel
      label="Layers"
      now={clock.now}
      onWidthChange={onWidthChange}
      onOpenChange={onOpenChange}
      {...props}
    >
      <p>Panel content</p>
    </SidePanel>,
  )
  const handle = screen.getByRole('separator')
  const panel = handle.parentElement as HTMLElement
  return { clock, handle, panel, onWidthChange, onOpenChange }
}

function press(
  handle: HTMLElement,
  clock: ReturnType<typeof manualClock>,
  options: { heldMs: number; moveToX?: number },
) {
  fireEvent.pointerDown(handle, { pointerId: 1, button: 0, clientX: 100 })
  if (options.moveToX !== undefined) {
    fireEvent.pointerMove(handle, { pointerId: 1, clientX: options.moveToX })
  }
  clock.advance(options.heldMs)
  fireEvent.pointerUp(handle, { pointerId: 1, clientX: options.moveToX ?? 100 })
}

describe('SidePanel', () => {
  it('opens at 240 px by default, with the width exposed on its handle', () => {
    const { handle, panel } = renderPanel()
    expect(panel.style.width).toBe('240px')
    expect(handle.getAttribute('aria-valuenow')).toBe('240')
    expect(handle.getAttribute('aria-valuemin')).toBe('240')
    expect(handle.getAttribute('aria-valuemax')).toBe('1360')
    expect(screen.getByRole('region', { name: 'Layers' }).textContent).toBe('Panel content')
  })

  it('toggles on a click shorter than 200 ms', () => {
    const { handle, panel, clock, onOpenChange } = renderPanel()
    press(handle, clock, { heldMs: handleClickMaxMs - 1 })
    expect(onOpenChange).toHaveBeenLastCalledWith(false)
    expect(panel.dataset.state).toBe('closed')
    expect(screen.queryByRole('region', { name: 'Layers' })).toBeNull()
    press(handle, clock, { heldMs: 50 })
    expect(panel.dataset.state).toBe('open')
  })

  it('does not toggle on a press of 200 ms or longer', () => {
    const { handle, panel, clock, onOpenChange } = renderPanel()
    press(handle, clock, { heldMs: handleClickMaxMs })
    expect(onOpenChange).not.toHaveBeenCalled()
    expect(panel.dataset.state).toBe('open')
  })

  it('resizes by dragging, within 240..1360', () => {
    const { handle, panel, clock, onWidthChange } = renderPanel({ defaultWidthPx: 400 })
    press(handle, clock, { heldMs: 500, moveToX: 250 })
    expect(onWidthChange).toHaveBeenLastCalledWith(550)
    expect(panel.style.width).toBe('550px')
    press(handle, clock, { heldMs: 500, moveToX: -900 })
    expect(panel.style.width).toBe('240px')
    press(handle, clock, { heldMs: 500, moveToX: 5000 })
    expect(panel.style.width).toBe('1360px')
    expect(panel.dataset.state).toBe('open')
  })

  it('is not toggled by a quick drag', () => {
    const { handle, panel, clock } = renderPanel()
    press(handle, clock, { heldMs: 100, moveToX: 180 })
    expect(panel.dataset.state).toBe('open')
    expect(panel.style.width).toBe('320px')
  })

  it('grows leftwards when it sits on the right', () => {
    const { handle, panel, clock } = renderPanel({ side: 'right' })
    press(handle, clock, { heldMs: 500, moveToX: 40 })
    expect(panel.style.width).toBe('300px')
  })

  it('resizes and toggles from the keyboard', async () => {
    const { handle, panel } = renderPanel()
    handle.focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    expect(panel.style.width).toBe('272px')
    await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}')
    expect(panel.style.width).toBe('336px')
    await userEvent.keyboard('{End}')
    expect(panel.style.width).toBe('1360px')
    await userEvent.keyboard('{Home}{ArrowLeft}')
    expect(panel.style.width).toBe('240px')
    await userEvent.keyboard('{Enter}')
    expect(panel.dataset.state).toBe('closed')
    expect(handle.getAttribute('aria-label')).toBe('Open Layers')
    await userEvent.keyboard(' ')
    expect(panel.dataset.state).toBe('open')
  })

  it('follows a controlled open state', () => {
    const { panel } = renderPanel({ isOpen: false, widthPx: 500 })
    expect(panel.dataset.state).toBe('closed')
    expect(panel.style.width).toBe('0px')
  })
})
