import { useLingui } from '@lingui/react/macro'
import type { KeyboardEvent, ReactNode } from 'react'
import { AltitudeSlider, RotationSlider } from '../../ui'
import { useControllableState } from '../../ui/use-controllable-state'
import {
  nextActiveTool,
  type PoiModeTool,
  type PoiTool,
  poiTools,
  sliderOfTool,
} from './poi-control'
import './pois.css'

/** Props of {@link PoiControlBar}. */
export interface PoiControlBarProps {
  /** The active tool when the editor owns it (it must know "move" to drag); else kept here. */
  activeTool?: PoiModeTool | null
  onActiveToolChange?: (tool: PoiModeTool | null) => void
  /** The selected POI's heading, degrees (−180..180, the rotate slider). */
  headingDegrees: number
  onHeadingChange: (degrees: number) => void
  /** Once per key press or at the end of a drag: the moment to save. */
  onHeadingCommit?: (degrees: number) => void
  /** The altitude offset since the tool opened, millimetres (−500..500, the altitude slider). */
  altitudeMillimeters: number
  onAltitudeChange: (millimeters: number) => void
  onAltitudeCommit?: (millimeters: number) => void
  canUndo: boolean
  onUndo: () => void
  onDelete: () => void
  /** The bar's close button (and Escape with no tool active). The active tool is cleared first. */
  onClose: () => void
  /** Nothing to act on (no POI selected): every tool is disabled. */
  isDisabled?: boolean
}

const icons: Record<PoiTool | 'close', ReactNode> = {
  move: (
    <path d="M12 2v20M2 12h20M12 2l-3 3M12 2l3 3M12 22l-3-3M12 22l3-3M2 12l3-3M2 12l3 3M22 12l-3-3M22 12l-3 3" />
  ),
  altitude: <path d="M12 3v18M8 7l4-4 4 4M8 17l4 4 4-4M4 12h4M16 12h4" />,
  rotate: <path d="M20 12a8 8 0 1 1-3-6.2M20 4v5h-5" />,
  undo: <path d="M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3" />,
  delete: <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />,
  close: <path d="M6 6l12 12M18 6L6 18" />,
}

/**
 * The POI control bar (SPEC §2 "POI control bar with altitude and rotate sliders", §4, §5):
 * move, altitude, rotate, undo and delete; one tool active at a time, rotate and altitude open
 * their slider below the bar and leaving the tool closes it. Keyboard: Tab or ←/→ between
 * tools, Enter/Space to choose, the sliders' own keys, Escape leaves the tool (then closes).
 */
export function PoiControlBar({
  activeTool: activeToolProp,
  onActiveToolChange,
  headingDegrees,
  onHeadingChange,
  onHeadingCommit,
  altitudeMillimeters,
  onAltitudeChange,
  onAltitudeCommit,
  canUndo,
  onUndo,
  onDelete,
  onClose,
  isDisabled = false,
}: PoiControlBarProps) {
  const { t } = useLingui()
  const [activeTool, setActiveTool] = useControllableState<PoiModeTool | null>({
    value: activeToolProp,
    defaultValue: null,
    onChange: onActiveToolChange,
  })
  const slider = sliderOfTool(activeTool)
  const labels: Record<PoiTool, string> = {
    move: t`Move`,
    altitude: t`Altitude`,
    rotate: t`Rotate`,
    undo: t`Undo`,
    delete: t`Delete`,
  }

  function press(tool: PoiTool) {
    const next = nextActiveTool(activeTool, tool)
    if (next !== activeTool) setActiveTool(next)
    if (tool === 'undo') onUndo()
    if (tool === 'delete') onDelete()
  }

  function close() {
    if (activeTool !== null) setActiveTool(null)
    onClose()
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation()
      if (activeTool !== null) setActiveTool(null)
      else close()
      return
    }
    // Arrow keys move between the bar's buttons (WAI-ARIA toolbar); the sliders keep theirs.
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    const target = event.target as HTMLElement
    if (target.getAttribute('role') === 'slider') return
    const buttons = Array.from(
      event.currentTarget.querySelectorAll<HTMLButtonElement>('[data-poi-tool]:not(:disabled)'),
    )
    const index = buttons.indexOf(target as HTMLButtonElement)
    if (index < 0) return
    event.preventDefault()
    const step = event.key === 'ArrowRight' ? 1 : -1
    buttons[(index + step + buttons.length) % buttons.length]?.focus()
  }

  return (
    // The sliders belong to the toolbar too (WAI-ARIA allows sliders in a toolbar), so Escape
    // on a slider leaves its tool.
    <div
      className="ts-poi-control"
      role="toolbar"
      aria-label={t`POI control`}
      onKeyDown={handleKeyDown}
    >
      <div className="ts-poi-control__bar">
        {poiTools.map((tool) => {
          const isMode = tool === 'move' || tool === 'altitude' || tool === 'rotate'
          const isToolDisabled = isDisabled || (tool === 'undo' && !canUndo)
          return (
            <button
              key={tool}
              type="button"
              data-poi-tool={tool}
              className={[
                'ts-poi-control__tool',
                tool === 'delete' ? 'ts-poi-control__tool--danger' : '',
              ].join(' ')}
              aria-pressed={isMode ? activeTool === tool : undefined}
              aria-label={labels[tool]}
              title={labels[tool]}
              disabled={isToolDisabled}
              onClick={() => press(tool)}
            >
              <svg viewBox="0 0 24 24" aria-hidden="true">
                {icons[tool]}
              </svg>
            </button>
          )
        })}
        <button
          type="button"
          data-poi-tool="close"
          className="ts-poi-control__tool"
          aria-label={t`Close POI control`}
          title={t`Close POI control`}
          onClick={close}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            {icons.close}
          </svg>
        </button>
      </div>
      {slider === 'rotate' && !isDisabled && (
        <div className="ts-poi-control__slider">
          <RotationSlider
            value={headingDegrees}
            onChange={onHeadingChange}
            onCommit={onHeadingCommit}
          />
        </div>
      )}
      {slider === 'altitude' && !isDisabled && (
        <div className="ts-poi-control__slider">
          <AltitudeSlider
            value={altitudeMillimeters}
            onChange={onAltitudeChange}
            onCommit={onAltitudeCommit}
          />
        </div>
      )}
    </div>
  )
}
