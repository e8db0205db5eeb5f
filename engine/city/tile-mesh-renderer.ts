import { type TileMesh, type TileTextureSampler, usesMipmaps } from './tile-meshes'

/**
 * Draws tile meshes with plain WebGL 2 calls: one small program per GL context, one vertex array
 * and texture per mesh, and per draw a handful of calls (bind, five uniforms, draw) — the cost
 * 3DTilesRendererJS's three.js pays, where a luma.gl model pays three uniform blocks and their
 * bindings. On a software GPU that difference decides whether a frame's commands fit the
 * command buffer or the page waits on a busy GPU process.
 *
 * The program also writes deck.gl's picking outputs (see `TileDrawMode`), so the layer that
 * uses it takes part in deck's picking and its depth pass like any deck layer.
 */

/** What a draw writes: the lit colour, deck's picking colour, or deck's picking depth. */
export type TileDrawMode = 'color' | 'pickingColor' | 'pickingDepth'

const drawModeValues: Record<TileDrawMode, number> = {
  color: 0,
  pickingColor: 1,
  pickingDepth: 2,
}

const vertexShaderSource = /* glsl */ `#version 300 es
precision highp float;
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 texCoord;
layout(location = 3) in vec4 color;
uniform mat4 modelViewProjection;
uniform mat4 modelMatrix;
// hasTexture, hasNormals, hasColors, isUnlit
uniform vec4 flags;
out vec2 vTexCoord;
out vec4 vColor;
out vec3 vNormal;
out vec3 vPosition;
out float vDepth;
void main(void) {
  vTexCoord = texCoord;
  vColor = flags.z > 0.5 ? color : vec4(1.0);
  vec4 positionMeters = modelMatrix * vec4(position, 1.0);
  vPosition = positionMeters.xyz;
  vNormal = mat3(modelMatrix) * normal;
  gl_Position = modelViewProjection * vec4(position, 1.0);
  vDepth = gl_Position.z / gl_Position.w;
}
`

const fragmentShaderSource = /* glsl */ `#version 300 es
precision highp float;
uniform sampler2D baseColorTexture;
uniform vec4 baseColor;
uniform vec4 flags;
uniform float alphaCutoff;
uniform vec3 pickingColor;
uniform int drawMode;
// The scene style's lights (tile-mesh-renderer's TileLighting), in the shader's sRGB units.
uniform vec3 ambientLight;
uniform vec3 sunLight;
uniform vec3 sunDirection;
uniform vec3 hemisphereSky;
uniform vec3 hemisphereGround;
in vec2 vTexCoord;
in vec4 vColor;
in vec3 vNormal;
in vec3 vPosition;
in float vDepth;
out vec4 fragColor;

void main(void) {
  vec4 color = vColor * baseColor;
  if (flags.x > 0.5) {
    color *= texture(baseColorTexture, vTexCoord);
  }
  if (alphaCutoff > 0.0 && color.a < alphaCutoff) {
    discard;
  }
  if (drawMode == 1) {
    fragColor = vec4(pickingColor, 1.0);
    return;
  }
  if (drawMode == 2) {
    fragColor = vec4(vDepth, 0.0, 0.0, 1.0);
    return;
  }
  if (flags.w < 0.5) {
    // Without normals the face normal comes from the surface itself (flat shading).
    vec3 surfaceNormal = flags.y > 0.5
      ? normalize(vNormal)
      : normalize(cross(dFdx(vPosition), dFdy(vPosition)));
    // abs: tiles often carry normals facing inwards; a wall is lit from either side.
    float diffuse = abs(dot(surfaceNormal, sunDirection));
    vec3 hemisphere = mix(hemisphereGround, hemisphereSky, surfaceNormal.z * 0.5 + 0.5);
    color.rgb *= ambientLight + sunLight * diffuse + hemisphere;
  }
  fragColor = vec4(color.rgb, 1.0);
}
`

interface ProgramInfo {
  program: WebGLProgram
  /** Linked without error; read when the program is made (see programFor). */
  isLinked: boolean
  uniforms: {
    modelViewProjection: WebGLUniformLocation | null
    modelMatrix: WebGLUniformLocation | null
    flags: WebGLUniformLocation | null
    baseColor: WebGLUniformLocation | null
    alphaCutoff: WebGLUniformLocation | null
    pickingColor: WebGLUniformLocation | null
    drawMode: WebGLUniformLocation | null
    baseColorTexture: WebGLUniformLocation | null
    ambientLight: WebGLUniformLocation | null
    sunLight: WebGLUniformLocation | null
    sunDirection: WebGLUniformLocation | null
    hemisphereSky: WebGLUniformLocation | null
    hemisphereGround: WebGLUniformLocation | null
  }
}

/**
 * How tiles are lit, in the shader's units (colour × strength, 0–1 per channel, summed): a
 * flat ambient term, a sun whose light falls on faces by their angle to it, and a hemisphere
 * that blends from the ground colour (faces looking down) to the sky colour (faces looking up).
 */
export interface TileLighting {
  ambient: readonly [number, number, number]
  sun: readonly [number, number, number]
  /** Unit vector towards the sun in the tiles' metres (x east, y north, z up). */
  sunDirection: readonly [number, number, number]
  hemisphereSky: readonly [number, number, number]
  hemisphereGround: readonly [number, number, number]
}

/** Without a style: a high sun from the south-east, walls facing away keep some light. */
export const defaultTileLighting: TileLighting = {
  ambient: [0.55, 0.55, 0.55],
  sun: [0.45, 0.45, 0.45],
  sunDirection: [0.3505, -0.4506, 0.8211],
  hemisphereSky: [0, 0, 0],
  hemisphereGround: [0, 0, 0],
}

const lightings = new WeakMap<WebGL2RenderingContext, TileLighting>()

/** Sets how the tiles of one GL context (one city map) are lit from the next frame on. */
export function setTileLighting(gl: WebGL2RenderingContext, lighting: TileLighting | null): void {
  if (lighting) lightings.set(gl, lighting)
  else lightings.delete(gl)
}

/** GPU copies of one tile mesh. */
export interface TileMeshGpu {
  mesh: TileMesh
  vertexArray: WebGLVertexArrayObject
  buffers: WebGLBuffer[]
  texture: WebGLTexture | null
  indexType: number
  elementCount: number
}

/** Per-draw values of one mesh. */
export interface TileMeshDraw {
  modelViewProjection: Float32Array
  modelMatrix: Float32Array
  /** 0–1 per channel (deck's byte colour ÷ 255). */
  pickingColor: readonly [number, number, number]
}

const programs = new WeakMap<WebGL2RenderingContext, ProgramInfo>()

function compileShader(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)
  if (!shader) throw new Error('WebGL could not create a shader.')
  gl.shaderSource(shader, source)
  gl.compileShader(shader)
  return shader
}

function programFor(gl: WebGL2RenderingContext): ProgramInfo {
  const existing = programs.get(gl)
  if (existing) return existing
  const program = gl.createProgram()
  if (!program) throw new Error('WebGL could not create a program.')
  gl.attachShader(program, compileShader(gl, gl.VERTEX_SHADER, vertexShaderSource))
  gl.attachShader(program, compileShader(gl, gl.FRAGMENT_SHADER, fragmentShaderSource))
  gl.linkProgram(program)
  const uniform = (name: string) => gl.getUniformLocation(program, name)
  const uniforms: ProgramInfo['uniforms'] = {
    modelViewProjection: uniform('modelViewProjection'),
    modelMatrix: uniform('modelMatrix'),
    flags: uniform('flags'),
    baseColor: uniform('baseColor'),
    alphaCutoff: uniform('alphaCutoff'),
    pickingColor: uniform('pickingColor'),
    drawMode: uniform('drawMode'),
    baseColorTexture: uniform('baseColorTexture'),
    ambientLight: uniform('ambientLight'),
    sunLight: uniform('sunLight'),
    sunDirection: uniform('sunDirection'),
    hemisphereSky: uniform('hemisphereSky'),
    hemisphereGround: uniform('hemisphereGround'),
  }
  // Read here, at the map's start, where the uniform locations above have already waited for the
  // link: a status query is a round trip that waits for every GPU command sent before it, and in
  // the frame of the first tile it waited behind that frame's work (88–195 ms under load in the
  // city-tiles bench).
  const info: ProgramInfo = {
    program,
    isLinked: Boolean(gl.getProgramParameter(program, gl.LINK_STATUS)),
    uniforms,
  }
  programs.set(gl, info)
  return info
}

/** The linked program; a program that failed to link (a lost context) fails the draw. */
function readyProgram(gl: WebGL2RenderingContext): ProgramInfo {
  const info = programFor(gl)
  if (!info.isLinked) {
    throw new Error(`Tile mesh program failed to link: ${gl.getProgramInfoLog(info.program)}`)
  }
  return info
}

/** Makes the program for this context now (compiled and linked before the first tile). */
export function prepareTileMeshProgram(gl: WebGL2RenderingContext): void {
  programFor(gl)
}

function uploadTexture(
  gl: WebGL2RenderingContext,
  image: TexImageSource,
  sampler: TileTextureSampler,
): WebGLTexture {
  const texture = gl.createTexture()
  if (!texture) throw new Error('WebGL could not create a texture.')
  gl.bindTexture(gl.TEXTURE_2D, texture)
  // Whatever the map or deck left in the unpack state, glTF images are uploaded as they are.
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false)
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false)
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4)
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image)
  // As the glTF's sampler says: mip levels cost a generation pass and trilinear reads, paid
  // only where the tileset asks for them.
  if (usesMipmaps(sampler.minFilter)) gl.generateMipmap(gl.TEXTURE_2D)
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, sampler.minFilter)
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, sampler.magFilter)
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, sampler.wrapS)
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, sampler.wrapT)
  gl.bindTexture(gl.TEXTURE_2D, null)
  return texture
}

/** Uploads one mesh: its buffers in a vertex array of its own, and its texture. */
export function createTileMeshGpu(gl: WebGL2RenderingContext, mesh: TileMesh): TileMeshGpu {
  const vertexArray = gl.createVertexArray()
  if (!vertexArray) throw new Error('WebGL could not create a vertex array.')
  const buffers: WebGLBuffer[] = []
  gl.bindVertexArray(vertexArray)
  const attribute = (location: number, data: Float32Array | null, size: number) => {
    if (!data) return
    const buffer = gl.createBuffer()
    if (!buffer) throw new Error('WebGL could not create a buffer.')
    buffers.push(buffer)
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW)
    gl.enableVertexAttribArray(location)
    gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0)
  }
  attribute(0, mesh.positions, 3)
  attribute(1, mesh.normals, 3)
  attribute(2, mesh.texCoords, 2)
  attribute(3, mesh.colors, 4)
  let indexType = 0
  if (mesh.indices) {
    const buffer = gl.createBuffer()
    if (!buffer) throw new Error('WebGL could not create a buffer.')
    buffers.push(buffer)
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, buffer)
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, mesh.indices, gl.STATIC_DRAW)
    indexType = mesh.indices instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT
  }
  // Unbound before the ELEMENT_ARRAY_BUFFER, which belongs to the vertex array's state.
  gl.bindVertexArray(null)
  gl.bindBuffer(gl.ARRAY_BUFFER, null)
  return {
    mesh,
    vertexArray,
    buffers,
    texture: mesh.texture ? uploadTexture(gl, mesh.texture, mesh.textureSampler) : null,
    indexType,
    elementCount: mesh.indices ? mesh.indices.length : mesh.vertexCount,
  }
}

/** Frees one mesh's GPU copies. */
export function deleteTileMeshGpu(gl: WebGL2RenderingContext, gpu: TileMeshGpu): void {
  gl.deleteVertexArray(gpu.vertexArray)
  for (const buffer of gpu.buffers) gl.deleteBuffer(buffer)
  if (gpu.texture) gl.deleteTexture(gpu.texture)
}

/**
 * Draws meshes into whatever framebuffer and fixed-function state the caller set (deck sets
 * depth, blending and, when picking, its picking framebuffer).
 */
export function drawTileMeshes(
  gl: WebGL2RenderingContext,
  mode: TileDrawMode,
  draws: Iterable<{ gpu: TileMeshGpu; draw: TileMeshDraw }>,
): void {
  const { program, uniforms } = readyProgram(gl)
  // biome-ignore lint/correctness/useHookAtTopLevel: WebGL's useProgram, not a React hook.
  gl.useProgram(program)
  gl.uniform1i(uniforms.drawMode, drawModeValues[mode])
  gl.uniform1i(uniforms.baseColorTexture, 0)
  const lighting = lightings.get(gl) ?? defaultTileLighting
  gl.uniform3fv(uniforms.ambientLight, lighting.ambient)
  gl.uniform3fv(uniforms.sunLight, lighting.sun)
  gl.uniform3fv(uniforms.sunDirection, lighting.sunDirection)
  gl.uniform3fv(uniforms.hemisphereSky, lighting.hemisphereSky)
  gl.uniform3fv(uniforms.hemisphereGround, lighting.hemisphereGround)
  gl.activeTexture(gl.TEXTURE0)
  for (const { gpu, draw } of draws) {
    const { mesh } = gpu
    gl.bindVertexArray(gpu.vertexArray)
    gl.bindTexture(gl.TEXTURE_2D, gpu.texture)
    gl.uniformMatrix4fv(uniforms.modelViewProjection, false, draw.modelViewProjection)
    gl.uniformMatrix4fv(uniforms.modelMatrix, false, draw.modelMatrix)
    gl.uniform4f(
      uniforms.flags,
      gpu.texture ? 1 : 0,
      mesh.normals ? 1 : 0,
      mesh.colors ? 1 : 0,
      mesh.isUnlit ? 1 : 0,
    )
    gl.uniform4fv(uniforms.baseColor, mesh.baseColor)
    gl.uniform1f(uniforms.alphaCutoff, mesh.alphaCutoff)
    gl.uniform3fv(uniforms.pickingColor, draw.pickingColor)
    if (gpu.indexType) gl.drawElements(gl.TRIANGLES, gpu.elementCount, gpu.indexType, 0)
    else gl.drawArrays(gl.TRIANGLES, 0, gpu.elementCount)
  }
  gl.bindVertexArray(null)
  gl.bindTexture(gl.TEXTURE_2D, null)
}
