import { createReadStream, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve } from 'node:path'
import { STORED_FILE_READ_BYTES } from '../../server/plugins/storage'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
}

/** A running server; `close()` must be called, also when the benchmark fails. */
export interface StaticServer {
  origin: string
  close(): Promise<void>
}

/**
 * Serves a built folder plus a few extra files on 127.0.0.1 at a free port. Pages are
 * cross-origin isolated (COOP/COEP), which gives them precise timers and SharedArrayBuffer,
 * as the app's own server is meant to.
 */
export async function startStaticServer(
  root: string,
  extraFiles: Record<string, string> = {},
): Promise<StaticServer> {
  const rootPath = resolve(root)
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    const extraFile = extraFiles[pathname]
    // normalize() of an absolute URL path cannot climb above '/', so the join stays in root.
    const filePath = extraFile ?? join(rootPath, normalize(pathname))
    let sizeBytes = -1
    try {
      const stats = statSync(filePath)
      if (stats.isFile()) sizeBytes = stats.size
    } catch {
      // Not found: answered below.
    }
    if (sizeBytes < 0) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, {
      'content-type': contentTypes[extname(filePath)] ?? 'application/octet-stream',
      'content-length': sizeBytes,
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    })
    // The extra files stand for stored files (models), read as the product's store reads them.
    createReadStream(filePath, extraFile ? { highWaterMark: STORED_FILE_READ_BYTES } : {}).pipe(
      response,
    )
  })
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections()
        server.close(() => resolveClose())
      }),
  }
}
