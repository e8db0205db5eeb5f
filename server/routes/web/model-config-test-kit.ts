import { createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { type MultipartPart, signInNewUser } from './project-test-kit'

/**
 * What the model-config route tests (structure merge and structure add) start from. Test-only
 * (no test runs from this file itself).
 */

/** One file of a model-config form: its field, its name and its bytes. */
export function filePart(name: string, fileName: string, value: Uint8Array): MultipartPart {
  return { name, value: Buffer.from(value), fileName }
}

/**
 * A fresh app with the demo editor signed in, and two more accounts for the access matrix: an
 * editor who does not own the editor's projects and a guest (names start with `prefix`).
 */
export async function startModelConfigSuite(prefix: string): Promise<{
  testApp: TestApp
  editor: string
  neighbour: string
  guest: string
}> {
  const testApp = await createTestApp()
  return {
    testApp,
    editor: await signIn(testApp.app, testEditor),
    neighbour: await signInNewUser(testApp.app, `${prefix}-neighbour`),
    guest: await signInNewUser(testApp.app, `${prefix}-guest`, 'guest'),
  }
}
