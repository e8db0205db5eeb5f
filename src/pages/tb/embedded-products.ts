import { useEffect, useState } from 'react'
import {
  type EmbeddedProductsDatum,
  embeddedProductRoutes,
} from '../../../contract/embedded-products'
import { api } from '../../api'

/** What the embedded-product pages know about their configuration. */
export type EmbeddedProductsState =
  | { status: 'loading' }
  | { status: 'ready'; products: EmbeddedProductsDatum }
  | { status: 'error'; error: unknown }

/** `GET /web/system/embeddedProducts`: the configured ThingsBoard and shadow-render editor. */
export async function fetchEmbeddedProducts(signal?: AbortSignal): Promise<EmbeddedProductsDatum> {
  return (
    await api.call(embeddedProductRoutes.embeddedProducts, undefined, signal ? { signal } : {})
  ).datum
}

/** Loads the embedded products' configuration once per mount. */
export function useEmbeddedProducts(): EmbeddedProductsState {
  const [state, setState] = useState<EmbeddedProductsState>({ status: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    fetchEmbeddedProducts(controller.signal)
      .then((products) => setState({ status: 'ready', products }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error })
      })
    return () => controller.abort()
  }, [])
  return state
}
