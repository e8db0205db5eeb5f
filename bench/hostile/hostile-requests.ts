/**
 * The requests of the `hostile` benchmark (./hostile-bench.ts), shared by the bench and its
 * flooding client (./hostile-flood.ts), and how one is sent.
 */
import { type Agent, request as httpRequest } from 'node:http'

/** One request of the flood. */
export interface HostileRequest {
  name: string
  method: 'POST' | 'GET'
  path: string
  contentType?: string
  body?: string
}

const deepQuery = Array.from({ length: 200 }, (_, i) => `k${i}${'[a]'.repeat(20)}=1`).join('&')

/** The hostile inputs, each built once. */
export const hostileRequests: HostileRequest[] = [
  {
    name: 'json-depth-9000',
    method: 'POST',
    path: '/web/login',
    contentType: 'application/json',
    body: `{"name":${'['.repeat(9_000)}${']'.repeat(9_000)}}`,
  },
  {
    name: 'json-depth-at-limit',
    method: 'POST',
    path: '/web/register/isexistemail',
    contentType: 'application/json',
    body: `{"email":${'{"a":'.repeat(63)}1${'}'.repeat(63)}}`,
  },
  {
    name: 'json-60000-keys',
    method: 'POST',
    path: '/web/login',
    contentType: 'application/json',
    body: JSON.stringify(
      Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i])),
    ),
  },
  {
    name: 'json-99000-values',
    method: 'POST',
    path: '/web/register/isexistemail',
    contentType: 'application/json',
    body: `{"email":[${Array(99_000).fill('"x"').join(',')}]}`,
  },
  {
    name: 'form-key-5000-levels',
    method: 'POST',
    path: '/web/login',
    contentType: 'application/x-www-form-urlencoded',
    body: `name${'[a]'.repeat(5_000)}=1`,
  },
  {
    name: 'form-900000-ampersands',
    method: 'POST',
    path: '/web/login',
    contentType: 'application/x-www-form-urlencoded',
    body: '&'.repeat(900_000),
  },
  {
    name: 'multipart-cut-short',
    method: 'POST',
    path: '/web/login',
    contentType: 'multipart/form-data; boundary=xx',
    body: `--xx\r\nContent-Disposition: form-data; name="name"\r\n\r\n${'n'.repeat(10_000)}`,
  },
  {
    name: 'json-over-size-limit',
    method: 'POST',
    path: '/web/login',
    contentType: 'application/json',
    body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
  },
  { name: 'query-nested-keys', method: 'GET', path: `/web/getTokenByTicket?${deepQuery}` },
]

/** What a request ended with: the status, or 'closed' when the server closed while it was sent. */
export type Outcome = number | 'closed'

/**
 * One request over a keep-alive agent, from `localAddress` (a loopback address of its own, so
 * the server tells the clients apart as it would real ones); resolves once the answer is read.
 * `counts.connections` counts the new connections it opened.
 */
export function send(
  port: number,
  agent: Agent,
  request: HostileRequest,
  localAddress = '127.0.0.1',
  counts?: { connections: number },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: request.method,
        path: request.path,
        agent,
        headers:
          request.body === undefined
            ? {}
            : {
                'content-type': request.contentType ?? 'application/json',
                'content-length': Buffer.byteLength(request.body),
              },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', reject)
      },
    )
    // A refusal may come before the whole body is sent (over the size limit, a client out of
    // its budget): the server closes then, and the answer may be lost with the connection.
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve('closed') : reject(error),
    )
    if (counts !== undefined) {
      outgoing.once('socket', () => {
        if (!outgoing.reusedSocket) counts.connections++
      })
    }
    outgoing.end(request.body)
  })
}
