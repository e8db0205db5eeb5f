// A Twinscape offline package's own web server, for browsers that will not open index.html from
// a disk (file://). It serves this folder, and nothing outside it, to this computer only
// (127.0.0.1). Node.js 18 or later, nothing to install, no network needed. See README.md.
//
//   node serve.mjs          listens on port 8765
//   node serve.mjs 9000     listens on port 9000 (0: any free port)
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { dirname, extname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const folder = await realpath(dirname(fileURLToPath(import.meta.url)))
const port = Number(process.argv[2] ?? 8765)

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.geojson': 'application/geo+json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.gml': 'application/gml+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
}

/**
 * The file a request path names inside the folder, or 'outside' when it tries to leave it
 * (`..` in any spelling, a backslash, a NUL, a link pointing out), or null when there is none.
 */
async function fileOf(rawPath) {
  let path
  try {
    path = decodeURIComponent(rawPath.split('?')[0].split('#')[0])
  } catch {
    return 'outside'
  }
  if (path === '/') path = '/index.html'
  const parts = path.split('/')
  if (parts.some((part) => part === '..' || part.includes('\\') || part.includes('\0'))) {
    return 'outside'
  }
  let real
  try {
    real = await realpath(join(folder, ...parts))
  } catch {
    return null
  }
  if (!real.startsWith(folder + sep)) return 'outside'
  const info = await stat(real)
  return info.isFile() ? { path: real, size: info.size } : null
}

const server = createServer(async (request, response) => {
  const answer = (status, text) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' })
    response.end(`${text}\n`)
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    answer(405, 'Only GET and HEAD.')
    return
  }
  const file = await fileOf(request.url ?? '/').catch(() => null)
  if (file === 'outside') {
    answer(403, 'Only the files of this package are served.')
    return
  }
  if (file === null) {
    answer(404, 'Not in this package.')
    return
  }
  response.writeHead(200, {
    'Content-Type': types[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': file.size,
    'Cache-Control': 'no-cache',
  })
  if (request.method === 'HEAD') {
    response.end()
    return
  }
  createReadStream(file.path)
    .on('error', () => response.destroy())
    .pipe(response)
})

server.on('error', (error) => {
  console.error(`serve.mjs: ${error.message}`)
  process.exit(1)
})

server.listen(port, '127.0.0.1', () => {
  const address = `http://127.0.0.1:${server.address().port}/`
  console.log(`Open ${address} in a browser (Ctrl+C stops the server).`)
  console.log(`在浏览器中打开 ${address}（按 Ctrl+C 停止服务器）。`)
  console.log(`브라우저에서 ${address} 을(를) 여세요 (Ctrl+C로 서버를 멈춥니다).`)
})
