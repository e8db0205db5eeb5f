import { z } from 'zod'

/**
 * The embedding API of the public preview (issue 19 "function expansion"): a page that shows
 * `/#/bim4/outPreview?…` in an `<iframe>` drives it with `postMessage` and hears its events.
 *
 * Request (to `iframe.contentWindow`):
 * `{ type: 'twinscape', id?: string, command: 'flyToPoi' | 'selectFloor' | 'startTour' | 'stopTour', args?: … }`
 * - `flyToPoi` `{ poiId }`: flies to a POI of the project;
 * - `selectFloor` `{ floor }`: a floor id or name, or null for all floors;
 * - `startTour` / `stopTour`: the captures' tour.
 *
 * Reply (to the sender's origin): `{ type: 'twinscape', id, ok: true, result }` or
 * `{ type: 'twinscape', id, ok: false, error: { code, message } }`.
 * Events: `{ type: 'twinscape', event: 'ready' | 'pick' | 'tour', data }`.
 *
 * Only the preview's own origin and the origins listed in the address's `embed_origin`
 * (comma-separated) are heard; messages from any other origin get no answer at all, and a
 * malformed message gets an error reply. Neither stops the preview.
 */
export const embedMessageType = 'twinscape'

/** The commands an embedding page may send. */
export const embedCommands = ['flyToPoi', 'selectFloor', 'startTour', 'stopTour'] as const
export type EmbedCommand = (typeof embedCommands)[number]

const requestSchema = z.object({
  type: z.literal(embedMessageType),
  id: z.string().max(100).optional(),
  command: z.enum(embedCommands),
  args: z.unknown().optional(),
})

const argsSchemas = {
  flyToPoi: z.object({ poiId: z.string().trim().min(1).max(100) }),
  selectFloor: z.object({ floor: z.string().trim().min(1).max(100).nullable() }),
  startTour: z.unknown(),
  stopTour: z.unknown(),
} satisfies Record<EmbedCommand, z.ZodType>

/** Stable codes of refused requests (an embedding page switches on them). */
export type EmbedErrorCode = 'badMessage' | 'badArgs' | 'notFound' | 'failed'

/** A refusal of an action, with its stable code. */
export class EmbedError extends Error {
  constructor(
    readonly code: EmbedErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** What the preview does for each command. */
export interface EmbedActions {
  flyToPoi(poiId: string): Promise<void>
  selectFloor(floor: string | null): Promise<void>
  /** False when there are no captures to tour. */
  startTour(): boolean
  stopTour(): void
}

/** Where replies and events go (the parent window). */
export interface EmbedTarget {
  postMessage(message: unknown, targetOrigin: string): void
}

/** The origins heard: this page's own and the valid ones of `embed_origin`. */
export function allowedEmbedOrigins(search: string, ownOrigin: string): Set<string> {
  const origins = new Set([ownOrigin])
  const listed = new URLSearchParams(search).get('embed_origin') ?? ''
  for (const text of listed.split(',').slice(0, 20)) {
    try {
      const { origin, protocol } = new URL(text.trim())
      if (protocol === 'https:' || protocol === 'http:') origins.add(origin)
    } catch {
      // not an address: ignored
    }
  }
  return origins
}

/** The embedding API over a parent window: `onMessage` for `message` events, `emit` for events. */
export function createEmbedApi(options: {
  origins: ReadonlySet<string>
  parent: EmbedTarget
  actions: EmbedActions
}) {
  const { origins, parent, actions } = options
  const reply = (origin: string, id: string | undefined, body: object) =>
    parent.postMessage({ type: embedMessageType, id: id ?? null, ...body }, origin)

  async function run(command: EmbedCommand, args: unknown): Promise<unknown> {
    const parsed = argsSchemas[command].safeParse(args ?? {})
    if (!parsed.success) {
      throw new EmbedError('badArgs', `Bad args for ${command}: ${parsed.error.issues[0]?.message}`)
    }
    switch (command) {
      case 'flyToPoi':
        await actions.flyToPoi((parsed.data as { poiId: string }).poiId)
        return null
      case 'selectFloor':
        await actions.selectFloor((parsed.data as { floor: string | null }).floor)
        return null
      case 'startTour':
        if (!actions.startTour()) throw new EmbedError('notFound', 'This project has no views.')
        return null
      case 'stopTour':
        actions.stopTour()
        return null
    }
  }

  return {
    /** Handles one `message` event; answers whether it was for this API from an allowed origin. */
    async onMessage(event: { origin: string; data: unknown; source: unknown }): Promise<boolean> {
      if (!origins.has(event.origin) || event.source !== parent) return false
      const data = event.data as { type?: unknown; id?: unknown } | null
      if (typeof data !== 'object' || data === null || data.type !== embedMessageType) return false
      // a reply or event of ours echoed back, not a request
      if ('ok' in data || 'event' in data) return false
      const request = requestSchema.safeParse(data)
      const id = typeof data.id === 'string' ? data.id.slice(0, 100) : undefined
      if (!request.success) {
        reply(event.origin, id, {
          ok: false,
          error: { code: 'badMessage', message: 'Expected { type, id?, command, args? }.' },
        })
        return true
      }
      try {
        const result = await run(request.data.command, request.data.args)
        reply(event.origin, id, { ok: true, result })
      } catch (error) {
        const code = error instanceof EmbedError ? error.code : 'failed'
        reply(event.origin, id, { ok: false, error: { code, message: (error as Error).message } })
      }
      return true
    },
    /** Tells every allowed origin about an event (the browser delivers only to the parent's). */
    emit(event: 'ready' | 'pick' | 'tour', data: unknown): void {
      for (const origin of origins)
        parent.postMessage({ type: embedMessageType, event, data }, origin)
    },
  }
}
