import type { ReactNode } from 'react'
import { LanguageSwitcher } from '../../components/shell/LanguageSwitcher'
import { productName } from '../route-table'
import './frames.css'

/** The frame of sign-in, sign-up and forgot-password: a centred card, language at the top. */
export function SignFrame({ children }: { children: ReactNode }) {
  return (
    <div className="ts-sign-frame">
      <div className="ts-sign-frame__bar">
        <LanguageSwitcher />
      </div>
      <main className="ts-sign-frame__card">
        <p className="ts-sign-frame__brand">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 2l9 5v10l-9 5-9-5V7z M12 2v20 M3 7l9 5 9-5" />
          </svg>
          {productName}
        </p>
        {children}
      </main>
    </div>
  )
}
