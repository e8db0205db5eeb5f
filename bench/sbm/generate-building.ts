import { Document } from '@gltf-transform/core'

/** What to generate: the same recipe always gives the same bytes. */
export interface BuildingRecipe {
  seed: number
  floorCount: number
  /** Generation stops adding elements once the whole building reaches this many triangles. */
  targetTriangleCount: number
}

/** The recipe the benchmarks use: ≥ 2 million triangles over eight floors (issue 5). */
export const benchBuildingRecipe: BuildingRecipe = {
  seed: 20261125,
  floorCount: 8,
  targetTriangleCount: 2_000_000,
}

/** Floor-to-floor height and footprint of the generated building, in metres. */
export const storeyHeightMeters = 3.6
export const footprintMeters = { width: 48, depth: 28 }

/** mulberry32: small, fast, and enough to place elements without visible patterns. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), state | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/** Growing vertex/index lists of one mesh. */
class MeshBuilder {
  positions: number[] = []
  normals: number[] = []
  indices: number[] = []

  get triangleCount(): number {
    return this.indices.length / 3
  }

  /** Axis-aligned box with flat faces (24 vertices, 12 triangles), like exported BIM solids. */
  box(
    centerX: number,
    centerY: number,
    centerZ: number,
    sizeX: number,
    sizeY: number,
    sizeZ: number,
  ) {
    const center = [centerX, centerY, centerZ]
    const half = [sizeX / 2, sizeY / 2, sizeZ / 2]
    for (let axis = 0; axis < 3; axis++) {
      for (const sign of [-1, 1]) {
        const u = (axis + 1) % 3
        const v = (axis + 2) % 3
        const base = this.positions.length / 3
        for (const [du, dv] of [
          [-1, -1],
          [1, -1],
          [1, 1],
          [-1, 1],
        ] as const) {
          const corner = [0, 0, 0]
          corner[axis] = center[axis]! + sign * half[axis]!
          corner[u] = center[u]! + du * half[u]!
          corner[v] = center[v]! + dv * half[v]!
          this.positions.push(corner[0]!, corner[1]!, corner[2]!)
          const normal = [0, 0, 0]
          normal[axis] = sign
          this.normals.push(normal[0]!, normal[1]!, normal[2]!)
        }
        if (sign > 0) this.indices.push(base, base + 1, base + 2, base, base + 2, base + 3)
        else this.indices.push(base, base + 2, base + 1, base, base + 3, base + 2)
      }
    }
  }

  /**
   * Smooth cylinder along one axis (shared vertices around each ring): pipes, ducts, round
   * columns. `along` 0 = x, 1 = y, 2 = z.
   */
  cylinder(
    start: [number, number, number],
    along: 0 | 1 | 2,
    lengthMeters: number,
    radiusMeters: number,
    segments: number,
    rings: number,
  ) {
    const u = (along + 1) % 3
    const v = (along + 2) % 3
    const base = this.positions.length / 3
    for (let ring = 0; ring <= rings; ring++) {
      for (let segment = 0; segment < segments; segment++) {
        const angle = (segment / segments) * Math.PI * 2
        const point = [...start]
        point[along] = start[along] + (ring / rings) * lengthMeters
        point[u] = start[u]! + Math.cos(angle) * radiusMeters
        point[v] = start[v]! + Math.sin(angle) * radiusMeters
        this.positions.push(point[0]!, point[1]!, point[2]!)
        const normal = [0, 0, 0]
        normal[u] = Math.cos(angle)
        normal[v] = Math.sin(angle)
        this.normals.push(normal[0]!, normal[1]!, normal[2]!)
      }
    }
    for (let ring = 0; ring < rings; ring++) {
      for (let segment = 0; segment < segments; segment++) {
        const next = (segment + 1) % segments
        const a = base + ring * segments + segment
        const b = base + ring * segments + next
        const c = base + (ring + 1) * segments + next
        const d = base + (ring + 1) * segments + segment
        this.indices.push(a, b, c, a, c, d)
      }
    }
  }

  /** UV sphere: light fittings, sensors, fixtures. */
  sphere(
    centerX: number,
    centerY: number,
    centerZ: number,
    radiusMeters: number,
    segments: number,
  ) {
    const rings = Math.max(3, Math.floor(segments / 2))
    const base = this.positions.length / 3
    for (let ring = 0; ring <= rings; ring++) {
      const polar = (ring / rings) * Math.PI
      for (let segment = 0; segment <= segments; segment++) {
        const azimuth = (segment / segments) * Math.PI * 2
        const x = Math.sin(polar) * Math.cos(azimuth)
        const y = Math.cos(polar)
        const z = Math.sin(polar) * Math.sin(azimuth)
        this.positions.push(
          centerX + x * radiusMeters,
          centerY + y * radiusMeters,
          centerZ + z * radiusMeters,
        )
        this.normals.push(x, y, z)
      }
    }
    for (let ring = 0; ring < rings; ring++) {
      for (let segment = 0; segment < segments; segment++) {
        const a = base + ring * (segments + 1) + segment
        const b = a + segments + 1
        this.indices.push(a, b, a + 1, b, b + 1, a + 1)
      }
    }
  }
}

type ElementKind = 'structure' | 'facade' | 'furniture' | 'pipes' | 'fixtures'

/** Share of each floor's triangles per kind: detail-heavy MEP and fixtures dominate, as in BIM. */
const triangleShares: Record<ElementKind, number> = {
  structure: 0.1,
  facade: 0.15,
  furniture: 0.2,
  pipes: 0.35,
  fixtures: 0.2,
}

function fillFloor(kind: ElementKind, builder: MeshBuilder, random: () => number, budget: number) {
  const { width, depth } = footprintMeters
  const x = () => (random() - 0.5) * (width - 2)
  const z = () => (random() - 0.5) * (depth - 2)
  if (kind === 'structure') {
    builder.box(0, -0.15, 0, width, 0.3, depth)
    for (let column = 0; builder.triangleCount < budget; column++) {
      const columnX = -width / 2 + 4 + (column % 11) * 4
      const columnZ = -depth / 2 + 4 + (Math.floor(column / 11) % 6) * 4
      builder.cylinder([columnX, 0, columnZ], 1, storeyHeightMeters - 0.3, 0.3, 32, 12)
    }
    return
  }
  while (builder.triangleCount < budget) {
    if (kind === 'facade') {
      // Window frame and mullion boxes along the four façades.
      const alongWidth = random() < 0.63
      const position = (random() - 0.5) * (alongWidth ? width : depth)
      const side = random() < 0.5 ? -1 : 1
      const height = 0.9 + random() * 1.6
      if (alongWidth)
        builder.box(position, height, side * (depth / 2), 0.06 + random() * 1.2, 0.08, 0.12)
      else builder.box(side * (width / 2), height, position, 0.12, 0.08, 0.06 + random() * 1.2)
    } else if (kind === 'furniture') {
      const deskX = x()
      const deskZ = z()
      builder.box(deskX, 0.72, deskZ, 1.6, 0.04, 0.8)
      for (const [legX, legZ] of [
        [-0.75, -0.35],
        [0.75, -0.35],
        [-0.75, 0.35],
        [0.75, 0.35],
      ] as const) {
        builder.box(deskX + legX, 0.35, deskZ + legZ, 0.05, 0.7, 0.05)
      }
      builder.box(deskX, 0.45, deskZ + 0.7, 0.5, 0.05, 0.5)
    } else if (kind === 'pipes') {
      const along = random() < 0.5 ? 0 : 2
      const lengthMeters = 3 + random() * 12
      const start: [number, number, number] = [x(), storeyHeightMeters - 0.5 - random() * 0.6, z()]
      builder.cylinder(start, along, lengthMeters, 0.04 + random() * 0.12, 16, 24)
    } else {
      builder.sphere(x(), storeyHeightMeters - 0.35, z(), 0.08 + random() * 0.15, 24)
    }
  }
}

/**
 * A seeded office building as a glTF document: per floor one mesh for each element kind
 * (structure, façade, furniture, pipes, fixtures), placed by a node at the floor's elevation,
 * with flat and smooth parts like an exported BIM model. Meshes stay separate per floor and
 * kind so loaders build one BVH each, as they would for a real model.
 */
export function generateBuilding(recipe: BuildingRecipe): Document {
  const random = createRandom(recipe.seed)
  const document = new Document()
  const buffer = document.createBuffer()
  const scene = document.createScene('building')
  document.getRoot().setDefaultScene(scene)
  const floorBudget = recipe.targetTriangleCount / recipe.floorCount
  const materials = Object.fromEntries(
    (Object.keys(triangleShares) as ElementKind[]).map((kind, index) => [
      kind,
      document
        .createMaterial(kind)
        .setBaseColorFactor([0.45 + index * 0.1, 0.5, 0.6 - index * 0.05, 1])
        .setRoughnessFactor(0.8)
        .setMetallicFactor(kind === 'pipes' ? 0.6 : 0),
    ]),
  ) as Record<ElementKind, ReturnType<Document['createMaterial']>>

  for (let floor = 0; floor < recipe.floorCount; floor++) {
    const floorNode = document
      .createNode(`F${floor + 1}`)
      .setTranslation([0, floor * storeyHeightMeters, 0])
    scene.addChild(floorNode)
    for (const kind of Object.keys(triangleShares) as ElementKind[]) {
      const builder = new MeshBuilder()
      fillFloor(kind, builder, random, Math.ceil(floorBudget * triangleShares[kind]))
      const vertexCount = builder.positions.length / 3
      const indices =
        vertexCount > 65535 ? new Uint32Array(builder.indices) : new Uint16Array(builder.indices)
      const primitive = document
        .createPrimitive()
        .setMaterial(materials[kind])
        .setAttribute(
          'POSITION',
          document
            .createAccessor()
            .setType('VEC3')
            .setArray(new Float32Array(builder.positions))
            .setBuffer(buffer),
        )
        .setAttribute(
          'NORMAL',
          document
            .createAccessor()
            .setType('VEC3')
            .setArray(new Float32Array(builder.normals))
            .setBuffer(buffer),
        )
        .setIndices(document.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
      const mesh = document.createMesh(`F${floor + 1} ${kind}`).addPrimitive(primitive)
      floorNode.addChild(document.createNode(`F${floor + 1} ${kind}`).setMesh(mesh))
    }
  }
  return document
}
