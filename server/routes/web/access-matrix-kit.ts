import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { callApi } from '../../testing/test-app'
import { signInNewUser } from './project-test-kit'

/** A call of an access-matrix check: its address and JSON body. */
export type MatrixCall = readonly [url: string, json: Record<string, unknown>]

/**
 * The access matrix of a project's owner-only calls, shared by the draw and location areas'
 * route tests (issue 18): a stranger and a guest are refused (403) every write and read, a call
 * without a session gets '2011'; with the project's token (a preview link) every read answers
 * and every write is refused. Answers the project token's headers and a signed-in admin (who
 * may write), for the checks that follow. `label` keeps the users' names apart per test file.
 */
export async function expectOwnerOnlyAccess(
  app: FastifyInstance,
  options: {
    ownerToken: string
    projectId: string
    label: string
    writes: readonly MatrixCall[]
    reads: readonly MatrixCall[]
  },
): Promise<{ projectTokenHeaders: Record<string, string>; adminToken: string }> {
  const { ownerToken, projectId, label, writes, reads } = options
  const stranger = await signInNewUser(app, `stranger-${label}`)
  const guest = await signInNewUser(app, `guest-${label}`, 'guest')
  for (const [url, json] of [...writes, ...reads]) {
    expect((await callApi(app, { url, token: stranger, json })).statusCode, url).toBe(403)
    expect((await callApi(app, { url, token: guest, json })).statusCode, url).toBe(403)
    expect((await callApi(app, { url, json })).envelope.code, url).toBe('2011')
  }
  const issued = await callApi<{ project_token: string }>(app, {
    url: '/web/project/getPTokenByprojectId',
    token: ownerToken,
    form: { id: projectId },
  })
  const projectTokenHeaders = { ProjectToken: issued.envelope.datum.project_token }
  for (const [url, json] of reads) {
    const answer = await callApi(app, { url, headers: projectTokenHeaders, json })
    expect(answer.envelope.code, `${url}: ${answer.envelope.message}`).toBe('0')
  }
  for (const [url, json] of writes) {
    const answer = await callApi(app, { url, headers: projectTokenHeaders, json })
    expect(answer.envelope.code, url).not.toBe('0')
  }
  return { projectTokenHeaders, adminToken: await signInNewUser(app, `admin-${label}`, 'admin') }
}
