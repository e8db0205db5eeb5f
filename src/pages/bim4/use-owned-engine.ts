import { useEffect, useState } from 'react'
import { Engine } from '../../engine-bridge'

/**
 * An engine that lives exactly as long as the calling component: created after mount, disposed
 * on unmount (workers terminated, scene freed). Null until the effect has run. Under React's
 * strict-mode double effects the first engine is disposed at once and the second one stays.
 */
export function useOwnedEngine(): Engine | null {
  const [engine, setEngine] = useState<Engine | null>(null)
  useEffect(() => {
    const created = new Engine()
    setEngine(created)
    return () => {
      created.dispose()
      setEngine((current) => (current === created ? null : current))
    }
  }, [])
  return engine
}
