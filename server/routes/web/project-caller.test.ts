import Fastify, { type FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../http/app-error'
import type { AuthUser } from '../../modules/accounts/users.service'
import { callerOf, callerOrNullOf, projectTokenOf } from './project-caller'

// A bare Fastify app, so headers and the query string arrive parsed the way real requests are.
const app = Fastify()
let captured: FastifyRequest | undefined
app.get('/probe', async (request) => {
  captured = request
  return null
})
beforeAll(() => app.ready())
afterAll(() => app.close())

async function requestWith(options: { headers?: Record<string, string>; query?: string }) {
  captured = undefined
  await app.inject({ method: 'GET', url: `/probe${options.query ?? ''}`, headers: options.headers })
  if (!captured) throw new Error('the probe route did not run')
  return captured
}

const signedIn: AuthUser = { id: 'user-1', name: 'alice', role: 'editor' }

describe('project caller resolution', () => {
  it('prefers the signed-in user over any project token', async () => {
    const request = await requestWith({ headers: { ProjectToken: 'from-header' } })
    expect(callerOf(request, signedIn, 'from-body')).toBe(signedIn)
    expect(callerOrNullOf(request, signedIn, undefined)).toBe(signedIn)
  })

  it('takes the body token first, then the ProjectToken header (any letter case)', async () => {
    const request = await requestWith({ headers: { projecttoken: 'from-header' } })
    expect(callerOf(request, null, 'from-body')).toEqual({ projectToken: 'from-body' })
    expect(callerOf(request, null, undefined)).toEqual({ projectToken: 'from-header' })
  })

  it('reads ?project_token= only when the route asks for it, after body and header', async () => {
    const queryOnly = await requestWith({ query: '?project_token=from-query' })
    expect(projectTokenOf(queryOnly, undefined)).toBeUndefined()
    expect(projectTokenOf(queryOnly, undefined, { fromQuery: true })).toBe('from-query')
    const both = await requestWith({
      headers: { ProjectToken: 'from-header' },
      query: '?project_token=from-query',
    })
    expect(projectTokenOf(both, undefined, { fromQuery: true })).toBe('from-header')
  })

  it('answers null, or session timeout, when nobody can be named', async () => {
    const request = await requestWith({})
    expect(callerOrNullOf(request, null, undefined)).toBeNull()
    for (const bodyToken of [undefined, '']) {
      const refusal = (() => {
        try {
          callerOf(request, null, bodyToken)
        } catch (error) {
          return error
        }
      })()
      expect(refusal).toBeInstanceOf(AppError)
      expect((refusal as AppError).kind).toBe('sessionTimeout')
    }
  })
})
