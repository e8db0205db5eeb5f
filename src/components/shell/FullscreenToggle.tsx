import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { showErrorToast } from '../feedback/error-text'
import './shell.css'

/** Enters or leaves full screen for the whole console; follows Escape and F11 exits too. */
export function FullscreenToggle() {
  const { t } = useLingui()
  const [isFullscreen, setIsFullscreen] = useState(() => Boolean(document.fullscreenElement))

  useEffect(() => {
    const onChange = () => setIsFullscreen(Boolean(document.fullscreenElement))
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])

  if (!document.fullscreenEnabled) return null

  async function toggle() {
    try {
      if (document.fullscreenElement) await document.exitFullscreen()
      else await document.documentElement.requestFullscreen()
    } catch (error) {
      showErrorToast(error)
    }
  }

  const label = isFullscreen ? t`Exit full screen` : t`Full screen`
  return (
    <button
      type="button"
      className="ts-top-menu__button"
      aria-pressed={isFullscreen}
      aria-label={label}
      title={label}
      onClick={toggle}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="ts-top-menu__icon">
        {isFullscreen ? (
          <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
        ) : (
          <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
        )}
      </svg>
    </button>
  )
}
