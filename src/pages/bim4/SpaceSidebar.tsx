import { useLingui } from '@lingui/react/macro'
import type { KeyboardEvent, ReactNode } from 'react'
import { useRef } from 'react'
import { Link } from 'wouter'
import { type SpaceModule, type SpaceModuleId, spaceModules } from './space-modules'

/** Props of {@link SpaceSidebar}. */
export interface SpaceSidebarProps {
  currentModuleId: SpaceModuleId
  onSwitchProject: () => void
  onBack: () => void
}

const iconPaths: Record<SpaceModuleId | 'switch' | 'back', string> = {
  model: 'M12 2l9 5v10l-9 5-9-5V7z M3 7l9 5 9-5 M12 12v10',
  poi: 'M12 22s7-7.2 7-12a7 7 0 0 0-14 0c0 4.8 7 12 7 12z M12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
  gml: 'M5 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z M19 9a2 2 0 1 0 0-4 2 2 0 0 0 0 4z M6.5 15.5l11-8 M5 15V5 M19 9v10',
  location: 'M12 2v4 M12 18v4 M2 12h4 M18 12h4 M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10z',
  download: 'M12 3v12 M7 10l5 5 5-5 M4 20h16',
  template: 'M4 4h7v7H4z M13 4h7v7h-7z M4 13h7v7H4z M13 13h7v7h-7z',
  style:
    'M12 3a9 9 0 1 0 0 18c1 0 1.5-.8 1.5-1.5 0-1.2-1-1.5-1-2.5s.8-1.5 2-1.5H17a4 4 0 0 0 4-4c0-4.7-4-8.5-9-8.5z',
  visit: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  switch: 'M4 7h13l-3-3 M20 17H7l3 3',
  back: 'M10 6l-6 6 6 6 M4 12h16',
}

function Icon({ name }: { name: keyof typeof iconPaths }) {
  return (
    <svg className="ts-bim4-sidebar__icon" viewBox="0 0 24 24" aria-hidden="true">
      <path d={iconPaths[name]} />
    </svg>
  )
}

/**
 * The space project sidebar (SPEC §2): Model, POI, GML path, location, download, template,
 * style, visit, switch project and back, each an icon with its label. Links for the modules so
 * they open in the URL; Up/Down/Home/End move focus between the entries.
 */
export function SpaceSidebar({ currentModuleId, onSwitchProject, onBack }: SpaceSidebarProps) {
  const { t, i18n } = useLingui()
  const navRef = useRef<HTMLElement>(null)

  function moveFocus(event: KeyboardEvent<HTMLElement>) {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key) || !navRef.current) return
    const entries = Array.from(navRef.current.querySelectorAll<HTMLElement>('[data-sidebar-entry]'))
    const index = entries.indexOf(document.activeElement as HTMLElement)
    const last = entries.length - 1
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? last
          : event.key === 'ArrowDown'
            ? (index + 1) % entries.length
            : (index - 1 + entries.length) % entries.length
    event.preventDefault()
    entries[next]?.focus()
  }

  const entry = (module: SpaceModule): ReactNode => {
    const isCurrent = module.id === currentModuleId
    return (
      <li key={module.id}>
        <Link
          href={module.path}
          className="ts-bim4-sidebar__entry"
          data-sidebar-entry=""
          data-current={isCurrent ? '' : undefined}
          aria-current={isCurrent ? 'page' : undefined}
        >
          <Icon name={module.id} />
          <span className="ts-bim4-sidebar__label">{i18n._(module.label)}</span>
        </Link>
      </li>
    )
  }

  return (
    <nav
      ref={navRef}
      className="ts-bim4-sidebar"
      aria-label={t`Space project`}
      onKeyDown={moveFocus}
    >
      <ul className="ts-bim4-sidebar__list">{spaceModules.map(entry)}</ul>
      <ul className="ts-bim4-sidebar__list ts-bim4-sidebar__list--actions">
        <li>
          <button
            type="button"
            className="ts-bim4-sidebar__entry"
            data-sidebar-entry=""
            onClick={onSwitchProject}
          >
            <Icon name="switch" />
            <span className="ts-bim4-sidebar__label">{t`Switch project`}</span>
          </button>
        </li>
        <li>
          <button
            type="button"
            className="ts-bim4-sidebar__entry"
            data-sidebar-entry=""
            onClick={onBack}
          >
            <Icon name="back" />
            <span className="ts-bim4-sidebar__label">{t`Back`}</span>
          </button>
        </li>
      </ul>
    </nav>
  )
}
