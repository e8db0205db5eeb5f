/**
 * The floor of the `hostile` benchmark (./hostile-bench.ts): a bare `node:http` server that does
 * no work at all, in its own process like ./hostile-server.ts. It answers `/web/health` 200 and
 * every other request 429 with the app's envelope from bytes built once, closing the connection
 * when a body was coming (as the app does for a client out of its budget). The same flood
 * against it shows what the machine itself (the three processes on its cores, the kernel's
 * connection and socket work) takes from the health client, whatever any server does. Answers
 * the bench's IPC messages like the app's server (./server-probe.ts).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerBenchProbes } from './server-probe'

const healthBody = Buffer.from(
  JSON.stringify({ code: '0', message: 'ok', datum: { status: 'ok', database: 'sqlite' } }),
)
const refusalBody = Buffer.from(
  JSON.stringify({
    code: '1029',
    message:
      'Too many of the requests from your address were refused. Please wait 1 s and try again.',
    messageId: 'request.tooManyRefused',
    params: { seconds: 1 },
    datum: { retryAfterSeconds: 1 },
  }),
)

const server = createServer((request, response) => {
  if (request.url?.startsWith('/web/health')) {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': healthBody.byteLength,
    })
    response.end(healthBody)
    return
  }
  const hasBody =
    request.headers['transfer-encoding'] !== undefined ||
    (request.headers['content-length'] ?? '0') !== '0'
  response.writeHead(429, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': refusalBody.byteLength,
    'retry-after': '1',
    'cache-control': 'no-store',
    ...(hasBody ? { connection: 'close' } : {}),
  })
  response.end(refusalBody)
})
server.listen(Number(process.env.HOSTILE_FLOOR_PORT) || 0, '127.0.0.1', () => {
  answerBenchProbes(server, () => new Promise((resolve) => server.close(() => resolve())))
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port })
})
