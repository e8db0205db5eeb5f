import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { encodePng } from '../../server/modules/convert/png'

/**
 * A tiny online map server on 127.0.0.1 started by a spec: a MapLibre style whose raster tiles
 * are one flat colour, and a style address that always fails. The product reaches it only
 * through its map proxy (playwright.config.ts lets exactly 127.0.0.1 through for tests); the
 * page itself may not talk to it (its CSP allows only the product's origin), which `requests`
 * lets a spec check: only the server asks here, never the browser.
 */
export interface MapUpstream {
  origin: string
  /** The style that draws the map in `tileColour`. */
  styleUrl: string
  /** A style address answering HTTP 503. */
  brokenStyleUrl: string
  tileColour: string
  /** Paths asked for, in order, with the user agent that asked. */
  requests: { path: string; userAgent: string }[]
  close(): Promise<void>
}

function flatTile(colour: string): Uint8Array {
  const [red, green, blue] = [1, 3, 5].map((offset) =>
    Number.parseInt(colour.slice(offset, offset + 2), 16),
  )
  const size = 256
  const pixels = new Uint8Array(size * size * 3)
  for (let index = 0; index < pixels.length; index += 3) {
    pixels[index] = red!
    pixels[index + 1] = green!
    pixels[index + 2] = blue!
  }
  return encodePng(pixels, size, size, 'rgb')
}

/** Starts the server on 127.0.0.1 on a free port. */
export async function startMapUpstream(tileColour = '#1f8a70'): Promise<MapUpstream> {
  const tile = flatTile(tileColour)
  const requests: MapUpstream['requests'] = []
  let origin = ''
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/'
    requests.push({ path, userAgent: String(request.headers['user-agent'] ?? '') })
    if (path === '/styles/flat/style.json') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          version: 8,
          name: 'Flat test style',
          sources: {
            flat: {
              type: 'raster',
              tiles: [`${origin}/tiles/{z}/{x}/{y}.png`],
              tileSize: 256,
              attribution: 'Test tiles',
            },
          },
          layers: [
            { id: 'background', type: 'background', paint: { 'background-color': '#000000' } },
            { id: 'flat', type: 'raster', source: 'flat' },
          ],
        }),
      )
      return
    }
    if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(path)) {
      response.writeHead(200, { 'content-type': 'image/png' })
      response.end(tile)
      return
    }
    response.writeHead(path.startsWith('/broken/') ? 503 : 404)
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    styleUrl: `${origin}/styles/flat/style.json`,
    brokenStyleUrl: `${origin}/broken/style.json`,
    tileColour,
    requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
