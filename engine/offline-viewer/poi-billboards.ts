import {
  Box3,
  BufferAttribute,
  InstancedBufferAttribute,
  InstancedBufferGeometry,
  Mesh,
  Sphere,
  SpriteMaterial,
  type Texture,
  Vector2,
  type Vector3,
} from 'three'

/** The lines of three.js's sprite vertex shader this replaces (each must be found). */
const spriteShaderEdits: ReadonlyArray<readonly [from: string, to: string]> = [
  [
    'uniform vec2 center;',
    'uniform vec2 center;\nuniform float poiSize;\nattribute vec3 poiCentre;',
  ],
  // the quad's centre is its POI's, not the object's origin
  [
    'vec4 mvPosition = modelViewMatrix[ 3 ];',
    'vec4 mvPosition = modelViewMatrix * vec4( poiCentre, 1.0 );',
  ],
  // the quad's size is the layer's, not the object's scale (which would move the centres too)
  [
    'vec2 scale = vec2( length( modelMatrix[ 0 ].xyz ), length( modelMatrix[ 1 ].xyz ) );',
    'vec2 scale = vec2( poiSize );',
  ],
]

/**
 * POIs that show one icon, drawn in one draw call: each a camera-facing square exactly as a
 * three.js Sprite of that size draws it (SpriteMaterial's own shader: the same texture,
 * colours, fog and tone mapping), its centre an instanced attribute. `size` is metres, or with
 * `isScreenSized` a share of the view (a Sprite's size without attenuation). One Sprite per POI
 * was one draw call each: with 10,000 POIs the viewer's first frame took 22 s under load
 * (bench/offline-viewer.ts). Drawn over the scene (no depth test), as the Sprites were.
 */
export function poiBillboards(
  texture: Texture,
  centres: readonly Vector3[],
  options: { size: number; isScreenSized: boolean },
): Mesh {
  const geometry = new InstancedBufferGeometry()
  // three.js's Sprite quad: corners ±0.5 around the centre, the texture upright on it
  geometry.setIndex([0, 1, 2, 0, 2, 3])
  geometry.setAttribute(
    'position',
    new BufferAttribute(
      new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0]),
      3,
    ),
  )
  geometry.setAttribute('uv', new BufferAttribute(new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]), 2))
  const flat = new Float32Array(centres.length * 3)
  for (const [index, centre] of centres.entries()) centre.toArray(flat, index * 3)
  geometry.setAttribute('poiCentre', new InstancedBufferAttribute(flat, 3))
  geometry.instanceCount = centres.length
  // where the POIs are (bounds of the view, Box3.setFromObject), not where the quad is
  geometry.boundingBox = new Box3().setFromArray(flat)
  geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new Sphere())
  const material = new SpriteMaterial({
    map: texture,
    depthTest: false,
    sizeAttenuation: !options.isScreenSized,
  })
  material.onBeforeCompile = (shader) => {
    shader.uniforms.poiSize = { value: options.size }
    for (const [from, to] of spriteShaderEdits) {
      if (!shader.vertexShader.includes(from)) {
        throw new Error(`three.js's sprite shader has changed: no "${from}"`)
      }
      shader.vertexShader = shader.vertexShader.replace(from, to)
    }
  }
  material.customProgramCacheKey = () => 'poi-billboards'
  // the renderer sets a SpriteMaterial's `center` uniform from the object it draws (a Sprite's
  // anchor): the middle, as a Sprite has it
  const mesh = Object.assign(new Mesh(geometry, material), { center: new Vector2(0.5, 0.5) })
  // each quad stands around its own centre: the whole layer is tested against the view by its
  // bounding sphere, which three.js does not grow by the quads' size
  mesh.frustumCulled = false
  mesh.renderOrder = 1
  return mesh
}
