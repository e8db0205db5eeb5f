import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import { productName } from '../../app/route-table'
import { session } from '../../state/session'
import { FullscreenToggle } from './FullscreenToggle'
import { Greeting } from './Greeting'
import { LanguageSwitcher } from './LanguageSwitcher'
import { NoticeBell } from './NoticeBell'
import './shell.css'

/**
 * The top control menu (SPEC §2): greeting, announcements, version notes, equipment and rule
 * manage, language, full screen and sign-out.
 */
export function TopMenu() {
  const { t } = useLingui()
  const { userData } = useSnapshot(session)
  const signOutLabel = t`Sign out`
  return (
    <header className="ts-top-menu">
      <Link href="/" className="ts-top-menu__brand" aria-label={t`${productName} home`}>
        <svg viewBox="0 0 24 24" aria-hidden="true" className="ts-top-menu__logo">
          <path d="M12 2l9 5v10l-9 5-9-5V7z M12 2v20 M3 7l9 5 9-5" />
        </svg>
        <span>{productName}</span>
      </Link>
      <Greeting />
      {userData?.role === 'guest' && (
        <span className="ts-top-menu__guest-badge">
          <Trans>Guest (read only)</Trans>
        </span>
      )}
      <nav className="ts-top-menu__actions" aria-label={t`Console controls`}>
        <Link href="/tbPage/devices" className="ts-top-menu__link">
          <Trans>Devices</Trans>
        </Link>
        <Link href="/tbPage/ruleChains" className="ts-top-menu__link">
          <Trans>Rule chains</Trans>
        </Link>
        <Link href="/tbPage/shadowEditor" className="ts-top-menu__link">
          <Trans>Shadow-render editor</Trans>
        </Link>
        <Link href="/note" className="ts-top-menu__link">
          <Trans>Version notes</Trans>
        </Link>
        <NoticeBell />
        <LanguageSwitcher />
        <FullscreenToggle />
        <Link
          href="/logout"
          className="ts-top-menu__button"
          aria-label={signOutLabel}
          title={signOutLabel}
          data-testid="sign-out"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" className="ts-top-menu__icon">
            <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />
          </svg>
        </Link>
      </nav>
    </header>
  )
}
