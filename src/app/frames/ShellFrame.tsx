import type { ReactNode } from 'react'
import { LeftMenu } from '../../components/shell/LeftMenu'
import { TopMenu } from '../../components/shell/TopMenu'
import './frames.css'

/** The signed-in console: top control menu, left menu and the page. */
export function ShellFrame({ children }: { children: ReactNode }) {
  return (
    <div className="ts-shell-frame">
      <TopMenu />
      <div className="ts-shell-frame__body">
        <LeftMenu />
        <main className="ts-shell-frame__main" id="main-content">
          {children}
        </main>
      </div>
    </div>
  )
}

/** The scene editors: top control menu and a full-width work area for the 3D view. */
export function EditorFrame({ children }: { children: ReactNode }) {
  return (
    <div className="ts-shell-frame ts-shell-frame--editor">
      <TopMenu />
      <main className="ts-shell-frame__main ts-shell-frame__main--editor" id="main-content">
        {children}
      </main>
    </div>
  )
}
