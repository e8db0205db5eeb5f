import { afterEach } from 'vitest'
import type { CitySnapshot } from '../../api/city-snapshot'
import { Engine } from '../../core/engine'

/** What a city browser test sets up: a sized container, an engine, cleanups run after each test. */
export interface CityTestPage {
  /** Run after the test, last registered first (awaited one by one). */
  cleanups: (() => void | Promise<void>)[]
  /** A 640×480 element in the page, removed after the test. */
  createContainer(): HTMLElement
  /** An engine disposed after the test. */
  createEngine(): Engine
  city(engine: Engine): CitySnapshot
}

/** Registers the after-each cleanup of a city browser test file and returns its helpers. */
export function cityTestPage(): CityTestPage {
  const cleanups: CityTestPage['cleanups'] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    cleanups,
    createContainer() {
      const container = document.createElement('div')
      container.style.cssText = 'position:absolute;left:0;top:0;width:640px;height:480px'
      document.body.append(container)
      cleanups.push(() => container.remove())
      return container
    },
    createEngine() {
      const engine = new Engine()
      cleanups.push(() => engine.dispose())
      return engine
    },
    city: (engine) => engine.getSnapshot().city,
  }
}
