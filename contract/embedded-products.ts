import { z } from 'zod'
import { webRoute } from './route'

/**
 * The external products the console embeds (issue 17 item 9; SPEC §1 "A device page and a
 * rule-chain page of a separate IoT product", §2 `/tbPage/devices`, `/tbPage/ruleChains` and "A
 * shadow-render editor page is embedded. It is addressed with name, id, type json, url and
 * token"). Each is configured on the server (docs/configuration.md "Embedded products"); a
 * product not configured is null, and its page says how to configure it.
 */
export const embeddedProductsDatumSchema = z.object({
  /** ThingsBoard's device list and rule chains, or null. */
  thingsboard: z.object({ devicesUrl: z.string(), ruleChainsUrl: z.string() }).nullable(),
  /** The shadow-render editor's page (the console adds the project's query), or null. */
  shadowEditor: z.object({ url: z.string() }).nullable(),
})
export type EmbeddedProductsDatum = z.infer<typeof embeddedProductsDatumSchema>

/**
 * The query the shadow-render editor is opened with (SPEC §2: name, id, type json, url, token):
 * the project's name and id, `type=json` (it reads the scene as JSON), `url` (where: the
 * project's building structure manifest when it has one, else this server's `/web/` API) and
 * `token` (a project token: read access to this one project, revocable).
 */
export function shadowEditorAddress(
  editorUrl: string,
  project: { id: string; name: string; sceneUrl: string; projectToken: string },
): string {
  const url = new URL(editorUrl)
  url.searchParams.set('name', project.name)
  url.searchParams.set('id', project.id)
  url.searchParams.set('type', 'json')
  url.searchParams.set('url', project.sceneUrl)
  url.searchParams.set('token', project.projectToken)
  return url.toString()
}

/** The /web/ routes of this area. */
export const embeddedProductRoutes = {
  embeddedProducts: webRoute({
    method: 'GET',
    path: '/web/system/embeddedProducts',
    auth: 'user',
    summary: 'The configured ThingsBoard and shadow-render editor addresses (null when not set)',
    tags: ['system'],
    datum: embeddedProductsDatumSchema,
  }),
}
