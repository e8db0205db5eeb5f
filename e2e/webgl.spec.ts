import { expect, test } from '@playwright/test'

/**
 * The first e2e: the production app loads from the real server, and this browser gives it a
 * working WebGL2 context — proven by drawing and reading pixels back, not by a blank canvas.
 */
test('the app loads and WebGL2 draws real pixels', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/')
  await expect(page).toHaveTitle(/Twinscape/)

  const result = await page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 64
    canvas.height = 64
    const gl = canvas.getContext('webgl2')
    if (!gl) return { hasWebGL2: false, litPixels: 0, renderer: '' }
    const vertexShader = gl.createShader(gl.VERTEX_SHADER)!
    gl.shaderSource(
      vertexShader,
      '#version 300 es\nin vec2 p; void main(){ gl_Position = vec4(p, 0.0, 1.0); }',
    )
    gl.compileShader(vertexShader)
    const fragmentShader = gl.createShader(gl.FRAGMENT_SHADER)!
    gl.shaderSource(
      fragmentShader,
      '#version 300 es\nprecision mediump float; out vec4 c; void main(){ c = vec4(0.3, 0.8, 1.0, 1.0); }',
    )
    gl.compileShader(fragmentShader)
    const program = gl.createProgram()
    gl.attachShader(program, vertexShader)
    gl.attachShader(program, fragmentShader)
    gl.linkProgram(program)
    // biome-ignore lint/correctness/useHookAtTopLevel: WebGL's useProgram, not a React hook
    gl.useProgram(program)
    const buffer = gl.createBuffer()
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, 0, 1]), gl.STATIC_DRAW)
    gl.enableVertexAttribArray(0)
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0)
    gl.clearColor(0, 0, 0, 1)
    gl.clear(gl.COLOR_BUFFER_BIT)
    gl.drawArrays(gl.TRIANGLES, 0, 3)
    const pixels = new Uint8Array(64 * 64 * 4)
    gl.readPixels(0, 0, 64, 64, gl.RGBA, gl.UNSIGNED_BYTE, pixels)
    let litPixels = 0
    for (let i = 0; i < pixels.length; i += 4) if ((pixels[i + 2] ?? 0) > 200) litPixels++
    return {
      hasWebGL2: true,
      litPixels,
      renderer: String(gl.getParameter(gl.VERSION)),
    }
  })
  expect(result.hasWebGL2).toBe(true)
  expect(result.renderer).toContain('WebGL 2')
  // The triangle covers half the canvas: far more than a few stray pixels, far less than all.
  expect(result.litPixels).toBeGreaterThan(64 * 64 * 0.3)
  expect(result.litPixels).toBeLessThan(64 * 64 * 0.7)
  expect(errors).toEqual([])
})

test('the server answers health and refuses a tokenless call with 2011', async ({ request }) => {
  const health = await request.get('/web/health')
  expect(health.ok()).toBe(true)
  expect((await health.json()).code).toBe('0')
  const userCall = await request.post('/web/user/findUserName', { data: {} })
  expect(userCall.status()).toBe(401)
  expect((await userCall.json()).code).toBe('2011')
})
