import { describe, expect, it } from 'vitest'
import { basemapFailureOf } from './basemap-failure'

/** MapLibre's AJAXError shape: a message and the HTTP status (0 when nothing answered). */
const ajaxError = (status: number) =>
  Object.assign(new Error(`AJAXError: (${status}): /web/mapproxy/x`), { status })

describe('basemap failure kinds', () => {
  it('follows the statuses the map proxy answers', () => {
    expect(basemapFailureOf(ajaxError(403))).toBe('notAllowed')
    expect(basemapFailureOf(ajaxError(413))).toBe('tooLarge')
    expect(basemapFailureOf(ajaxError(404))).toBe('notFound')
    expect(basemapFailureOf(ajaxError(415))).toBe('notStyle')
    expect(basemapFailureOf(ajaxError(503))).toBe('unreachable')
    expect(basemapFailureOf(ajaxError(0))).toBe('unreachable')
    expect(basemapFailureOf(ajaxError(418))).toBe('failed')
  })

  it('reads errors without a status from their message', () => {
    expect(basemapFailureOf(new TypeError('Failed to fetch'))).toBe('unreachable')
    expect(basemapFailureOf(new Error('style: missing required property "version"'))).toBe(
      'notStyle',
    )
    expect(basemapFailureOf('something else')).toBe('failed')
  })
})
