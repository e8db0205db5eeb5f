import { z } from 'zod'
import { errorCatalogue } from '../../contract/errors'

import type { RouteAuth, RouteMethod } from '../../contract/route'

export type { RouteAuth, RouteMethod } from '../../contract/route'

/** What the OpenAPI document needs to know about one route. */
export interface DocumentedRoute {
  method: RouteMethod
  url: string
  auth: RouteAuth
  summary: string
  description?: string
  tags: string[]
  body?: z.ZodType
  query?: z.ZodType
  datum: z.ZodType
  /** Multipart file fields the route accepts, if any. */
  fileFields?: readonly string[]
}

type JsonSchema = Record<string, unknown>

/** Converts a contract schema to JSON Schema; the input side for requests, output for answers. */
function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as JsonSchema
  return rest
}

function envelopeOf(datum: JsonSchema, code?: string): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'message', 'datum'],
    properties: {
      code: code === undefined ? { type: 'string' } : { type: 'string', const: code },
      message: { type: 'string' },
      datum,
    },
  }
}

const errorCodesDescription = Object.entries(errorCatalogue)
  .map(([kind, entry]) => `- \`${entry.code}\` ${kind} (HTTP ${entry.httpStatus})`)
  .join('\n')

/**
 * Collects the routes `defineRoute` registers and builds the OpenAPI 3.1 document served at
 * `GET /web/openapi.json`, straight from the contract's zod schemas.
 */
export class OpenApiRegistry {
  private readonly routes: DocumentedRoute[] = []
  private readonly served: Array<{ method: string; url: string }> = []
  private cached: JsonSchema | undefined

  /**
   * Notes a route Fastify registered under /web/, documented or not (raw file and tus routes
   * too), so tests can walk every address the server answers (server/routes-fuzz.fuzz.test.ts).
   */
  noteServed(method: string, url: string): void {
    this.served.push({ method, url })
  }

  /** Every method and path registered under /web/, in order (HEAD routes included). */
  listServed(): ReadonlyArray<{ method: string; url: string }> {
    return this.served
  }

  /** Adds a route to the document. */
  add(route: DocumentedRoute): void {
    this.routes.push(route)
    this.cached = undefined
  }

  /** The routes added so far, in order. */
  list(): readonly DocumentedRoute[] {
    return this.routes
  }

  /** The OpenAPI document. */
  document(info: { title: string; version: string }): JsonSchema {
    this.cached ??= this.build(info)
    return this.cached
  }

  private build(info: { title: string; version: string }): JsonSchema {
    const paths: Record<string, Record<string, JsonSchema>> = {}
    for (const route of this.routes) {
      const operation: JsonSchema = {
        summary: route.summary,
        ...(route.description === undefined ? {} : { description: route.description }),
        tags: route.tags,
        'x-auth': route.auth,
        ...(route.auth === 'public' ? { security: [] } : { security: [{ token: [] }] }),
        responses: {
          '200': {
            description: 'Success: `code` is "0".',
            content: {
              'application/json': {
                schema: envelopeOf(toJsonSchema(route.datum, 'output'), errorCatalogue.ok.code),
              },
            },
          },
          default: {
            description: 'Failure: `code` and HTTP status from the error catalogue.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
          },
        },
      }
      if (route.query !== undefined) operation.parameters = queryParameters(route.query)
      if (route.body !== undefined || route.fileFields !== undefined) {
        operation.requestBody = requestBodyOf(route)
      }
      paths[route.url] ??= {}
      ;(paths[route.url] as Record<string, JsonSchema>)[route.method.toLowerCase()] = operation
    }
    return {
      openapi: '3.1.0',
      info: {
        title: info.title,
        version: info.version,
        description:
          'Every answer is `{ code, message, datum }`. Bodies may be JSON, form-encoded (nested keys ' +
          'as `a.b=1` or `a[b]=1`, lists as repeated keys or `ids[]=`; numbers and booleans as text) ' +
          `or multipart.\n\nCodes:\n${errorCodesDescription}`,
      },
      paths,
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Token' } },
        schemas: {
          Failure: envelopeOf({
            anyOf: [
              { type: 'null' },
              { type: 'object', properties: { details: {} }, required: ['details'] },
            ],
          }),
        },
      },
    }
  }
}

function requestBodyOf(route: DocumentedRoute): JsonSchema {
  const fields = route.body === undefined ? { type: 'object' } : toJsonSchema(route.body, 'input')
  const multipart: JsonSchema = structuredClone(fields)
  if (route.fileFields !== undefined) {
    const properties = (multipart.properties ?? {}) as Record<string, JsonSchema>
    for (const field of route.fileFields) {
      properties[field] = { type: 'string', contentMediaType: 'application/octet-stream' }
    }
    multipart.properties = properties
  }
  const content: Record<string, JsonSchema> = { 'multipart/form-data': { schema: multipart } }
  if (route.fileFields === undefined) {
    content['application/json'] = { schema: fields }
    content['application/x-www-form-urlencoded'] = { schema: fields }
  }
  return { required: route.body !== undefined, content }
}

function queryParameters(query: z.ZodType): JsonSchema[] {
  const schema = toJsonSchema(query, 'input')
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
    ...(property.type === 'object' ? { style: 'deepObject', explode: true } : {}),
  }))
}
