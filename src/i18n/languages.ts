/** The console's languages, in the spec's order; the first is the default (decisions.md). */
export const languages = ['ko', 'zh', 'en'] as const
export type Language = (typeof languages)[number]
export const defaultLanguage: Language = 'ko'
/** SPEC §1: the choice is remembered in a cookie named `language`. */
export const languageCookieName = 'language'

export const languageLabels: Record<Language, string> = {
  ko: '한국어',
  zh: '中文',
  en: 'English',
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}

/** Reads the `language` cookie from a `document.cookie` string; falls back to ko. */
export function languageFromCookie(cookieHeader: string): Language {
  for (const part of cookieHeader.split(';')) {
    const [rawName, ...rest] = part.split('=')
    if (rawName?.trim() === languageCookieName) {
      const value = decodeURIComponent(rest.join('=').trim())
      if (isLanguage(value)) return value
    }
  }
  return defaultLanguage
}
