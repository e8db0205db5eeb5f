import { i18n } from '@lingui/core'
import { cleanup } from '@testing-library/react'
import { afterEach, beforeEach } from 'vitest'

/**
 * Component tests render in English with the source messages (ids compile to their English
 * text), so assertions read like the UI. Language switching has its own tests.
 */
beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
})
afterEach(() => cleanup())
