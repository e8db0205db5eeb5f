import type { LinguiConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

/**
 * Korean first: with no `language` cookie the console starts in ko (decisions.md).
 * Two catalogs so the widget kit (src/ui) keeps its strings beside its code and the pages keep
 * theirs; src/i18n/i18n.ts loads both into one message table per locale.
 */
const config: LinguiConfig = {
  locales: ['ko', 'zh', 'en'],
  sourceLocale: 'en',
  fallbackLocales: { default: 'en' },
  catalogs: [
    { path: '<rootDir>/src/ui/locales/{locale}', include: ['<rootDir>/src/ui'] },
    {
      path: '<rootDir>/src/i18n/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['<rootDir>/src/ui/**'],
    },
  ],
  // No line numbers: they shift with every edit and made parallel branches conflict in the catalogues.
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
}
export default config
