import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { initialLanguage } from '../../i18n/i18n'
import { LanguageSwitcher } from './LanguageSwitcher'

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the product writes this cookie the same way
  document.cookie = 'language=; path=/; max-age=0'
})

describe('LanguageSwitcher', () => {
  it('switches the language and remembers it in the language cookie', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <LanguageSwitcher />
      </I18nProvider>,
    )
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Language: English' }))
    await user.click(await screen.findByRole('menuitemradio', { name: '中文' }))

    await waitFor(() => expect(i18n.locale).toBe('zh'))
    expect(document.cookie).toContain('language=zh')
    expect(document.documentElement.lang).toBe('zh')
    // What the next page load starts in.
    expect(initialLanguage()).toBe('zh')
    // The switcher itself now reads in Chinese.
    await screen.findByRole('button', { name: /中文/ })
  })
})
