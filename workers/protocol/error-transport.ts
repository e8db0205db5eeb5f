import { transferHandlers } from 'comlink'

type ThrowHandler = {
  canHandle: (value: unknown) => boolean
  serialize: (value: { value: unknown }) => [unknown, Transferable[]]
  deserialize: (serialized: unknown) => unknown
}

let isInstalled = false

/**
 * comlink sends a thrown Error as { message, name, stack } only, which would drop the `code`
 * (e.g. a GmlError's `gml.*`) the UI translates by. The receiving side rebuilds errors with
 * Object.assign(new Error(), value), so adding `code` here is enough: no client change.
 * Installed once per worker by `exposeWorker` (expose.ts); calling it again does nothing.
 */
export function keepErrorCodesAcrossComlink(): void {
  if (isInstalled) return
  isInstalled = true
  const original = transferHandlers.get('throw') as unknown as ThrowHandler
  const withCodes: ThrowHandler = {
    canHandle: original.canHandle,
    deserialize: original.deserialize,
    serialize({ value }) {
      if (value instanceof Error) {
        const code = (value as { code?: unknown }).code
        return [
          {
            isError: true,
            value: {
              message: value.message,
              name: value.name,
              stack: value.stack,
              ...(typeof code === 'string' ? { code } : {}),
            },
          },
          [],
        ]
      }
      return original.serialize({ value })
    },
  }
  transferHandlers.set('throw', withCodes as unknown as Parameters<typeof transferHandlers.set>[1])
}
