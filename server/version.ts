import { readFileSync } from 'node:fs'

/** The version in package.json, shown by `/web/health` and the OpenAPI document. */
export const appVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version
