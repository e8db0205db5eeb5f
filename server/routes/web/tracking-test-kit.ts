import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { DrawPoint } from '../../../contract/draw'
import type { Project } from '../../../contract/project'
import type { TrackedObject } from '../../../contract/tracking'
import {
  type ApiAnswer,
  callApi,
  createTestApp,
  type TestApp,
  signIn,
  testEditor,
} from '../../testing/test-app'
import { createProject } from './project-test-kit'

/**
 * What the fence and location POI route tests (issue 18) stand on: a ~100 m square in Seoul with
 * points inside and outside it, and a fresh app with a signed-in editor's city project.
 */

/** A ~100 m square in Seoul. */
export const square: DrawPoint[] = [
  [126.978, 37.5665],
  [126.97913, 37.5665],
  [126.97913, 37.5674],
  [126.978, 37.5674],
]
/** A point inside {@link square}. */
export const inside = { lng: 126.9785, lat: 37.567 }
/** A point east of {@link square}. */
export const outside = { lng: 126.9805, lat: 37.567 }

/** The app, the editor's session and city project, and calls made as that editor. */
export interface TrackingTestApp {
  test: TestApp
  app: FastifyInstance
  token: string
  project: Project
  /** A JSON call as the editor (or as `as`; null: without a session). */
  call<Datum>(
    url: string,
    json: Record<string, unknown>,
    as?: string | null,
  ): Promise<ApiAnswer<Datum>>
  /** `creatLocationPoi` in the editor's project unless `json` names another. */
  addLocationPoi(
    json: Record<string, unknown>,
    as?: string,
  ): Promise<ApiAnswer<{ object: TrackedObject; token: string }>>
  /** A device's position report, sent with the content type its stack sets. */
  report(deviceToken: string, body: unknown, contentType?: string): Promise<LightMyRequestResponse>
}

/** Opens a fresh app with a signed-in editor and a city project of theirs. */
export async function openTrackingTestApp(): Promise<TrackingTestApp> {
  const test = await createTestApp()
  const { app } = test
  const token = await signIn(app, testEditor)
  const project = await createProject(app, token, { kind: 'city' })
  const call = <Datum>(url: string, json: Record<string, unknown>, as: string | null = token) =>
    callApi<Datum>(app, { url, json, ...(as === null ? {} : { token: as }) })
  return {
    test,
    app,
    token,
    project,
    call,
    addLocationPoi: (json, as = token) =>
      call('/web/poi/creatLocationPoi', { project_id: project.id, ...json }, as),
    report: (deviceToken, body, contentType = 'application/json') =>
      app.inject({
        method: 'POST',
        url: `/api/v1/${deviceToken}/position`,
        headers: { 'content-type': contentType },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  }
}
