import { useLingui } from '@lingui/react'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { proxy, useSnapshot } from 'valtio'
import { afterEach, describe, expect, it } from 'vitest'
import { createInitialSnapshot, type Engine } from '../../engine/api'
import { createTestEngine } from '../../engine/testing/test-engine'
import { renderWithI18n } from '../ui/testing/render-with-i18n'
import { sampleBytes, zipOf } from '../../workers/unzip/zip-test-fixtures'
import { connectEngine } from './connect-engine'
import { engineErrorMessage } from './engine-error-messages'
import { installEngineTestApi } from './engine-test-api'
import { EngineProvider, useEngine } from './EngineProvider'
import type { SceneState } from './scene-store'

const engines: Engine[] = []
function startEngine() {
  const engine = createTestEngine()
  engines.push(engine)
  return engine
}
afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose()
})

/** A small upload panel: lists an archive through the engine and shows the mirrored error. */
function ArchivePanel({ store, source }: { store: SceneState; source: Uint8Array }) {
  const engine = useEngine()
  const scene = useSnapshot(store)
  const { _ } = useLingui()
  const [entryNames, setEntryNames] = useState<string[]>([])
  const list = () =>
    engine.run('archive.list', { source }).then(
      (listing) => setEntryNames(listing.entries.map((entry) => entry.name)),
      () => setEntryNames([]),
    )
  return (
    <div>
      <button type="button" onClick={list}>
        List
      </button>
      <ul>
        {entryNames.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      {scene.lastError && <p role="alert">{_(engineErrorMessage(scene.lastError.code))}</p>}
    </div>
  )
}

function Orphan() {
  useEngine()
  return null
}

describe('EngineProvider', () => {
  it('lets components run commands and shows the engine state mirrored into the store', async () => {
    const store = proxy<SceneState>(createInitialSnapshot())
    const engine = startEngine()
    const { rerender } = renderWithI18n(
      <EngineProvider engine={engine} store={store}>
        <ArchivePanel store={store} source={zipOf({ 'model/Duck.glb': sampleBytes(100) })} />
      </EngineProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'List' }))
    expect(await screen.findByText('model/Duck.glb')).toBeDefined()
    expect(screen.queryByRole('alert')).toBeNull()

    rerender(
      <EngineProvider engine={engine} store={store}>
        <ArchivePanel store={store} source={sampleBytes(100)} />
      </EngineProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'List' }))
    expect((await screen.findByRole('alert')).textContent).toBe('The file is not a zip archive.')
    expect(store.lastError).toMatchObject({ code: 'archive.notZip', command: 'archive.list' })
    expect(store.revision).toBe(engine.getSnapshot().revision)
  })

  it('refuses useEngine outside a provider', () => {
    const originalError = console.error
    console.error = () => undefined
    try {
      expect(() => render(<Orphan />)).toThrow('useEngine() needs an <EngineProvider> above it')
    } finally {
      console.error = originalError
    }
  })
})

describe('connectEngine', () => {
  it('copies only the parts that changed and stops when disconnected', async () => {
    const store = proxy<SceneState>(createInitialSnapshot())
    const engine = startEngine()
    const disconnect = connectEngine(engine, store)
    const viewBefore = store.view
    await engine.run('archive.list', { source: sampleBytes(10) }).catch(() => undefined)
    await expect.poll(() => store.lastError?.code).toBe('archive.notZip')
    expect(store.view).toBe(viewBefore)
    expect(store.revision).toBeGreaterThan(0)

    disconnect()
    const revisionAtDisconnect = store.revision
    await engine.run('view.probeWebGL').catch(() => undefined)
    await expect.poll(() => engine.getSnapshot().lastError?.code).toBe('view.noCanvas')
    expect(store.revision).toBe(revisionAtDisconnect)
    expect(store.lastError?.code).toBe('archive.notZip')
  })
})

describe('installEngineTestApi', () => {
  afterEach(() => {
    window.localStorage.removeItem('twinTest')
    delete window.__twinTest
  })

  it('exposes the snapshot and commands to e2e specs only when the test API is enabled', async () => {
    const engine = startEngine()
    installEngineTestApi(engine)()
    expect(window.__twinTest).toBeUndefined()

    window.localStorage.setItem('twinTest', '1')
    const uninstall = installEngineTestApi(engine)
    expect(window.__twinTest?.getEngineSnapshot()).toBe(engine.getSnapshot())
    const listing = await window.__twinTest!.runEngineCommand('archive.list', {
      source: zipOf({ 'a.txt': 'a' }),
    })
    expect(listing.entries.map((entry) => entry.name)).toEqual(['a.txt'])
    uninstall()
    expect(window.__twinTest?.getEngineSnapshot).toBeUndefined()
  })
})
