import { useLingui } from '@lingui/react/macro'
import { DropdownMenu } from 'radix-ui'
import { useState } from 'react'
import { activateLanguage } from '../../i18n/i18n'
import { isLanguage, type Language, languageLabels, languages } from '../../i18n/languages'
import { showErrorToast } from '../feedback/error-text'
import './shell.css'

/**
 * The top menu's language choice (SPEC §1). Switching loads the catalog, re-renders every
 * string and writes the `language` cookie, so a reload starts in the same language.
 */
export function LanguageSwitcher() {
  const { i18n, t } = useLingui()
  const [isSwitching, setIsSwitching] = useState(false)
  const current: Language = isLanguage(i18n.locale) ? i18n.locale : 'ko'
  const languageName = languageLabels[current]

  async function choose(value: string) {
    if (!isLanguage(value) || value === current) return
    setIsSwitching(true)
    try {
      await activateLanguage(value)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsSwitching(false)
    }
  }

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="ts-top-menu__button"
        aria-label={t`Language: ${languageName}`}
        aria-busy={isSwitching || undefined}
        data-testid="language-switcher"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" className="ts-top-menu__icon">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
        </svg>
        <span>{languageName}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="ts-top-menu__dropdown" align="end" sideOffset={6}>
          <DropdownMenu.RadioGroup value={current} onValueChange={choose}>
            {languages.map((language) => (
              <DropdownMenu.RadioItem
                key={language}
                value={language}
                className="ts-top-menu__dropdown-item"
                lang={language}
              >
                <DropdownMenu.ItemIndicator className="ts-top-menu__check">
                  ✓
                </DropdownMenu.ItemIndicator>
                {languageLabels[language]}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
