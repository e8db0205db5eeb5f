import { i18n, type Messages } from '@lingui/core'
import { type Language, languageCookieName, languageFromCookie } from './languages'

/**
 * Each locale's messages are two compiled catalogs (widget kit + pages, see lingui.config.ts),
 * loaded lazily so a user downloads only the language they read.
 */
const catalogLoaders: Record<Language, () => Promise<Messages>> = {
  ko: async () =>
    merge(await import('../ui/locales/ko.po'), await import('./locales/ko/messages.po')),
  zh: async () =>
    merge(await import('../ui/locales/zh.po'), await import('./locales/zh/messages.po')),
  en: async () =>
    merge(await import('../ui/locales/en.po'), await import('./locales/en/messages.po')),
}

function merge(...catalogs: { messages: Messages }[]): Messages {
  return Object.assign({}, ...catalogs.map((catalog) => catalog.messages))
}

/** Loads and activates a language, and remembers it in the `language` cookie for a year. */
export async function activateLanguage(language: Language): Promise<void> {
  const messages = await catalogLoaders[language]()
  i18n.loadAndActivate({ locale: language, messages })
  document.documentElement.lang = language
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari
  document.cookie = `${languageCookieName}=${language}; path=/; max-age=31536000; samesite=lax`
}

/** The language to start in: the cookie's, else ko. */
export function initialLanguage(): Language {
  return languageFromCookie(typeof document === 'undefined' ? '' : document.cookie)
}

export { i18n }
