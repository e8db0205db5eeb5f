import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { BufferAttribute, BufferGeometry, Matrix4, Quaternion, Vector3 } from 'three'
import { MeshBVH } from 'three-mesh-bvh'
import { ArrivingBytes } from './arriving-bytes'
import { decodeBvhRoots, type StoredBvhEntry } from './bvh-chunk'
import type {
  RebuiltIndices,
  DecodedImage,
  DecodedInstance,
  DecodedMaterial,
  DecodedMesh,
  DecodedPrimitive,
  DecodedSbm,
  DecodedTexture,
  DecodedTextureReference,
} from './decoded-sbm'
import { decodeWhileArriving, type EarlyBvhRoots } from './decode-while-arriving'
import { type AccessorDestination, GltfBufferReader } from './gltf-buffers'
import { type LapTimer, startLapTimer } from './load-timings'
import { readArrivingSbmPrefix, readSbm, type SbmPrefix } from './read-sbm'
import { SbmDownloadError, SbmError } from './sbm-error'

/** What to decode: everything three.js needs, or only what picking needs (no normals, uvs, images). */
export interface DecodeSbmOptions {
  purpose?: 'render' | 'picking'
  /**
   * Also copy positions and indices for the picking worker (`pickingGeometry`, see
   * takeForPicking); with a file still arriving, each view's range is copied as soon as it is
   * decoded, so little of the copy is left after the last byte.
   */
  copyGeometryForPicking?: boolean
  /**
   * Decode no BVH, stored or built: another thread decodes what picking needs from the same
   * bytes (the picking worker, fed through `PostedModelSource.forwardTo`), so this decode makes
   * no copy for it either. Each primitive's box is then the box of its vertices. Stored entries
   * are still matched to their primitives; `stats.builtBvhCount` counts the primitives whose
   * BVH the picking side will have to build.
   */
  withoutBvhs?: boolean
  /**
   * Which share of a render decode this call makes, so two workers can decode one file on two
   * cores (issue 23.2, model-download.ts `splitDecode`): `positionsAndBvhs` decodes positions,
   * BVHs, bounds, images and the positions' picking copy (indices come back empty, `normals`/
   * `uvs` null, `secondShare` set); `indicesNormalsAndUvs` decodes indices (with their range
   * check and picking copy), normals and uvs (positions empty, no BVHs, no images). Both
   * calls decide alike from the same JSON whether the split holds: only when every primitive
   * stores its normals and indices (computing missing ones needs the other share's arrays);
   * otherwise the first decodes as `all` would and the second decodes nothing. A primitive
   * with no stored BVH is built by the first share over its own decode of that primitive's
   * indices, which the join puts in place (`secondShare.rebuiltIndices`): a built BVH reorders
   * them. Default `all`.
   */
  share?: DecodeShare
}

/** See {@link DecodeSbmOptions.share}. */
export type DecodeShare = 'all' | 'positionsAndBvhs' | 'indicesNormalsAndUvs'

type Json = Record<string, unknown>

const TRIANGLES = 4

function list(json: Json, key: string): unknown[] {
  const value = json[key]
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new SbmError(`glTF ${key} is not an array`)
  return value
}

function record(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SbmError(`${what} is not an object`)
  }
  return value as Json
}

function integerOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback
}

function numbersOr<Tuple extends number[]>(value: unknown, fallback: Tuple): Tuple {
  if (!Array.isArray(value) || value.length !== fallback.length) return fallback
  return value.map((item, index) => numberOr(item, fallback[index]!)) as Tuple
}

/**
 * Decodes an SBM file into {@link DecodedSbm}: validates it (throwing {@link SbmError} with the
 * user-facing 'not a valid SBM file' message for anything wrong), decodes meshopt-compressed
 * geometry, deserializes each primitive's stored BVH after checking it is a sound tree over that
 * primitive's triangles, and builds a BVH only for primitives that have none stored.
 * Given {@link ArrivingBytes} (a download still in progress), it decodes each compressed view of
 * the BIN chunk as soon as its bytes are in, then checks the whole file as {@link readSbm} does
 * before anything decoded is used: the same result and the same refusals as with all the bytes
 * at once, without waiting for the last byte to start. A failed download rejects with
 * {@link SbmDownloadError}. Pure: runs the same in a worker, on the main thread and in Node.
 */
export async function decodeSbm(
  input: Uint8Array | ArrayBuffer | ArrivingBytes,
  options: DecodeSbmOptions = {},
): Promise<DecodedSbm> {
  const timer = startLapTimer()
  await MeshoptDecoder.ready
  timer.lap('meshoptReady')
  try {
    if (input instanceof ArrivingBytes && !input.isComplete) {
      const prefix = await readArrivingSbmPrefix(input)
      timer.lap('waitForBytes')
      if (prefix) return await decodeArriving(input, prefix, options, timer)
      await input.whenReceived(input.bytes.byteLength)
      timer.lap('waitForBytes')
    }
    const file = readSbm(input instanceof ArrivingBytes ? input.bytes : input)
    timer.lap('container')
    return await decodeValidated(
      file,
      async () => ({ bvhEntries: file.bvhEntries }),
      options,
      timer,
    )
  } catch (error) {
    // Any slip on hostile data (a RangeError, a bad index) is still "not a valid SBM".
    if (error instanceof SbmError || error instanceof SbmDownloadError) throw error
    throw new SbmError(`decoding failed: ${(error as Error).message}`)
  }
}

/**
 * The arriving file's decode: compressed views and stored BVHs are decoded as their bytes come
 * in (decode-while-arriving.ts), then the whole file is read and checked (`container`) before
 * the reads, which find those views done, and before any early BVH is used.
 */
function decodeArriving(
  arriving: ArrivingBytes,
  prefix: SbmPrefix,
  options: DecodeSbmOptions,
  timer: LapTimer,
): Promise<DecodedSbm> {
  return decodeValidated(
    prefix,
    async (reader, onPlaced) => {
      const early = await decodeWhileArriving(arriving, prefix.bin, reader, {
        decoder: MeshoptDecoder,
        timer,
        onPlaced,
        decodeBvhs: options.withoutBvhs !== true,
      })
      await arriving.whenReceived(arriving.bytes.byteLength)
      timer.lap('waitForBytes')
      const file = readSbm(arriving.bytes)
      timer.lap('container')
      return { bvhEntries: file.bvhEntries, early }
    },
    options,
    timer,
  )
}

/**
 * Plans, allocates and reads every primitive of a file whose container was checked (or, for an
 * arriving file, whose start was: `beforeReads` then has the views decoded as they arrive and
 * the whole file checked, and gives the BVH entries).
 */
async function decodeValidated(
  { json, bin, header }: Pick<SbmPrefix, 'json' | 'header'> & { bin: Uint8Array | null },
  beforeReads: (
    reader: GltfBufferReader,
    onPlaced: (placed: AccessorDestination[]) => void,
  ) => Promise<{ bvhEntries: StoredBvhEntry[]; early?: EarlyBvhRoots }>,
  options: DecodeSbmOptions,
  timer: LapTimer,
): Promise<DecodedSbm> {
  const isForRender = options.purpose !== 'picking'
  const reader = new GltfBufferReader(json, bin, MeshoptDecoder)
  const meshDefinitions = list(json, 'meshes')
  const instances = collectInstances(json, meshDefinitions.length)

  // Plan every triangle primitive first, so each output buffer is allocated once at full size.
  interface Plan {
    primitive: DecodedPrimitive
    positionAccessor: number
    normalAccessor: number | null
    uvAccessor: number | null
    indexAccessor: number | null
  }
  const plans: Plan[] = []
  const meshes: DecodedMesh[] = []
  let vertexTotal = 0
  let indexTotal = 0
  let skippedPrimitiveCount = 0
  meshDefinitions.forEach((meshValue, meshIndex) => {
    const mesh = record(meshValue, `mesh ${meshIndex}`)
    const primitiveIds: number[] = []
    list(mesh, 'primitives').forEach((primitiveValue, primitiveIndex) => {
      const primitive = record(primitiveValue, `mesh ${meshIndex} primitive ${primitiveIndex}`)
      const attributes = record(primitive.attributes, `mesh ${meshIndex} attributes`)
      const positionAccessor = integerOrNull(attributes.POSITION)
      if ((primitive.mode ?? TRIANGLES) !== TRIANGLES || positionAccessor === null) {
        skippedPrimitiveCount++
        return
      }
      const vertexCount = reader.count(positionAccessor)
      const indexAccessor = integerOrNull(primitive.indices)
      const indexCount = indexAccessor === null ? vertexCount : reader.count(indexAccessor)
      if (indexCount % 3 !== 0) {
        throw new SbmError(`mesh ${meshIndex} primitive ${primitiveIndex} has a partial triangle`)
      }
      const normalAccessor = isForRender ? integerOrNull(attributes.NORMAL) : null
      const uvAccessor = isForRender ? integerOrNull(attributes.TEXCOORD_0) : null
      primitiveIds.push(plans.length)
      plans.push({
        positionAccessor,
        normalAccessor,
        uvAccessor,
        indexAccessor,
        primitive: {
          meshIndex,
          primitiveIndex,
          materialIndex: integerOrNull(primitive.material),
          vertexOffset: vertexTotal,
          vertexCount,
          indexOffset: indexTotal,
          indexCount,
          hasUvs: uvAccessor !== null,
          bvhRootIndices: [],
          isBvhStored: false,
          boundingBox: [0, 0, 0, 0, 0, 0],
          boundingSphere: [0, 0, 0, 0],
        },
      })
      vertexTotal += vertexCount
      indexTotal += indexCount
    })
    meshes.push({ name: typeof mesh.name === 'string' ? mesh.name : '', primitiveIds })
  })

  const share = isForRender ? (options.share ?? 'all') : 'all'
  const isSplit =
    share !== 'all' &&
    plans.every((plan) => plan.normalAccessor !== null && plan.indexAccessor !== null)
  const isFirstShare = isSplit && share === 'positionsAndBvhs'
  // The second share of a file that does not split: the first decodes it all.
  const isIdle = share === 'indicesNormalsAndUvs' && !isSplit
  const hasPositions = !isIdle && !(isSplit && share === 'indicesNormalsAndUvs')
  const hasIndices = !isIdle && !isFirstShare
  const hasNormalsAndUvs = isForRender && !isIdle && !isFirstShare
  // Both shares lay the indices out, so both describe the same ranges.
  const indexLength = layOutIndices(plans, reader)
  const rebuiltIndices: RebuiltIndices[] = []

  const positions = new Float32Array(hasPositions ? vertexTotal * 3 : 0)
  const normals = hasNormalsAndUvs ? new Float32Array(vertexTotal * 3) : null
  const hasAnyUvs = plans.some((plan) => plan.uvAccessor !== null)
  const uvs = hasAnyUvs && hasNormalsAndUvs ? new Float32Array(vertexTotal * 2) : null
  const indices = new Uint32Array(hasIndices ? indexLength : 0)
  // Telling the reader where each read lands lets it decode compressed views straight into these
  // arrays instead of into temporaries that are copied and left for the collector.
  for (const { primitive, ...plan } of plans) {
    const vertices = { elementOffset: primitive.vertexOffset, elementCount: primitive.vertexCount }
    if (hasPositions) {
      reader.expectReads(plan.positionAccessor, { target: positions, ...vertices })
    }
    if (normals && plan.normalAccessor !== null) {
      reader.expectReads(plan.normalAccessor, { target: normals, ...vertices })
    }
    if (uvs && plan.uvAccessor !== null) {
      reader.expectReads(plan.uvAccessor, { target: uvs, ...vertices })
    }
    if (hasIndices && plan.indexAccessor !== null) {
      reader.expectReads(plan.indexAccessor, {
        target: indices,
        elementOffset: primitive.indexOffset,
        elementCount: primitive.indexCount,
      })
    }
  }
  const copies =
    options.copyGeometryForPicking &&
    !isIdle &&
    (options.withoutBvhs !== true || (isSplit && !isFirstShare))
      ? pickingCopies(
          positions,
          indices,
          plans.map((plan) => plan.primitive),
        )
      : null
  timer.lap('plan')
  const { bvhEntries, early } = await beforeReads(reader, (placed) => copies?.copyPlaced(placed))
  const storedByKey = new Map(
    bvhEntries.map((entry) => [`${entry.meshIndex}/${entry.primitiveIndex}`, entry]),
  )
  const usedEntries = new Set<StoredBvhEntry>()
  const bvhRoots: ArrayBuffer[] = []
  let storedBvhCount = 0
  let builtBvhCount = 0
  for (const plan of plans) {
    const { primitive } = plan
    if (!hasPositions) {
      // The second share: the first reads positions and BVHs, bounds and images.
      if (hasIndices) {
        reader.readIndicesInto(
          plan.indexAccessor!,
          primitive.vertexCount,
          indices,
          primitive.indexOffset,
        )
      }
      timer.lap('indices')
      if (normals && plan.normalAccessor !== null) {
        reader.readFloatsInto(plan.normalAccessor, 3, normals, primitive.vertexOffset)
      }
      if (uvs && plan.uvAccessor !== null) {
        reader.readFloatsInto(plan.uvAccessor, 2, uvs, primitive.vertexOffset)
      }
      timer.lap('normalsAndUvs')
      continue
    }
    reader.readFloatsInto(plan.positionAccessor, 3, positions, primitive.vertexOffset)
    timer.lap('positions')
    if (isFirstShare) {
      // indices are the second share's
    } else if (plan.indexAccessor === null) {
      for (let index = 0; index < primitive.indexCount; index++) {
        indices[primitive.indexOffset + index] = index
      }
    } else {
      reader.readIndicesInto(
        plan.indexAccessor,
        primitive.vertexCount,
        indices,
        primitive.indexOffset,
      )
    }
    timer.lap('indices')
    if (normals) {
      if (plan.normalAccessor !== null) {
        reader.readFloatsInto(plan.normalAccessor, 3, normals, primitive.vertexOffset)
      } else {
        computeVertexNormals(positions, indices, primitive, normals)
      }
    }
    if (uvs && plan.uvAccessor !== null) {
      reader.readFloatsInto(plan.uvAccessor, 2, uvs, primitive.vertexOffset)
    }
    timer.lap('normalsAndUvs')

    const key = `${primitive.meshIndex}/${primitive.primitiveIndex}`
    const stored = storedByKey.get(key)
    let roots: ArrayBuffer[] = []
    if (primitive.indexCount === 0) {
      // Nothing to pick: three-mesh-bvh cannot build over zero triangles, and needs not.
    } else if (stored) {
      if (stored.triangleCount !== primitive.indexCount / 3) {
        throw new SbmError(`the stored BVH of ${key} covers other geometry`)
      }
      if (options.withoutBvhs !== true) {
        roots = early?.rootsOf(stored) ?? decodeBvhRoots(stored, MeshoptDecoder)
      }
      usedEntries.add(stored)
      primitive.isBvhStored = true
      storedBvhCount++
    } else {
      if (options.withoutBvhs === true) {
        // built on the picking side
      } else if (isFirstShare) {
        // The indices are decoded elsewhere: decode this primitive's here, build over them
        // (which reorders them) and hand them to the join, which puts them in place.
        const own = new Uint32Array(primitive.indexCount)
        reader.readIndicesInto(plan.indexAccessor!, primitive.vertexCount, own, 0)
        roots = buildBvhRoots(positions, own, { ...primitive, indexOffset: 0 })
        rebuiltIndices.push({ indexOffset: primitive.indexOffset, indices: own })
      } else {
        roots = buildBvhRoots(positions, indices, primitive)
      }
      builtBvhCount++
    }
    primitive.bvhRootIndices = roots.map((root) => bvhRoots.push(root) - 1)
    timer.lap('bvh')
    primitive.boundingBox =
      roots.length > 0
        ? boundsOfRoots(roots)
        : primitive.indexCount > 0
          ? boxOfVertices(positions, primitive)
          : [0, 0, 0, 0, 0, 0]
    primitive.boundingSphere = boundingSphereOf(positions, primitive)
    timer.lap('bounds')
  }
  const pickingGeometry = copies?.finish() ?? null
  timer.lap('copyForPicking')
  if (hasPositions && usedEntries.size !== bvhEntries.length) {
    throw new SbmError('the BVH chunk has entries for primitives that do not exist')
  }

  const images =
    isForRender && hasPositions ? collectImages(json, reader) : { images: [], imageBytes: null }
  timer.lap('images')
  return {
    header,
    positions,
    normals,
    uvs: isForRender ? uvs : null,
    indices,
    bvhRoots,
    primitives: plans.map((plan) => plan.primitive),
    meshes,
    instances,
    materials: isForRender ? list(json, 'materials').map(readMaterial) : [],
    textures: isForRender ? list(json, 'textures').map(readTexture(json)) : [],
    images: images.images,
    imageBytes: images.imageBytes,
    stats: {
      triangleCount: indexTotal / 3,
      vertexCount: vertexTotal,
      storedBvhCount,
      builtBvhCount,
      skippedPrimitiveCount,
    },
    ...(pickingGeometry ? { pickingGeometry } : {}),
    ...(isFirstShare ? { secondShare: { rebuiltIndices } } : {}),
    timings: timer.timings,
  }
}

/**
 * The picking worker's copies of positions and indices, made range by range: `copyPlaced` takes
 * the ranges a view's early decode made final, `finish` copies every range still missing.
 */
function pickingCopies(
  positions: Float32Array<ArrayBuffer>,
  indices: Uint32Array<ArrayBuffer>,
  primitives: DecodedPrimitive[],
) {
  const copy = {
    positions: new Float32Array(positions.length),
    indices: new Uint32Array(indices.length),
  }
  // Ranges as `start:count` (a primitive with no vertices may share its start with the next).
  const copiedVertexRanges = new Set<string>()
  const copiedIndexRanges = new Set<string>()
  const copyRange = (target: Float32Array | Uint32Array, start: number, count: number) => {
    // A share of a split decode holds one of the two arrays only (DecodeSbmOptions.share).
    if (target.length === 0) return
    if (target === positions) {
      copy.positions.set(positions.subarray(start * 3, (start + count) * 3), start * 3)
      copiedVertexRanges.add(`${start}:${count}`)
    } else if (target === indices) {
      copy.indices.set(indices.subarray(start, start + count), start)
      copiedIndexRanges.add(`${start}:${count}`)
    }
  }
  return {
    copyPlaced(placed: AccessorDestination[]) {
      for (const { target, elementOffset, elementCount } of placed) {
        copyRange(target, elementOffset, elementCount)
      }
    },
    finish() {
      for (const primitive of primitives) {
        if (!copiedVertexRanges.has(`${primitive.vertexOffset}:${primitive.vertexCount}`)) {
          copyRange(positions, primitive.vertexOffset, primitive.vertexCount)
        }
        // A BVH built here reordered that primitive's indices after any early copy.
        const isFinal = primitive.isBvhStored || primitive.indexCount === 0
        if (
          !isFinal ||
          !copiedIndexRanges.has(`${primitive.indexOffset}:${primitive.indexCount}`)
        ) {
          copyRange(indices, primitive.indexOffset, primitive.indexCount)
        }
      }
      return copy
    },
  }
}

/**
 * Most elements of an index view that no primitive reads, as a share of those it reads, for its
 * accessors still to be laid out where they sit in the view (see layOutIndices): room for them
 * costs memory, and a hostile file could otherwise declare a huge view around a tiny accessor.
 */
const maxUnreadShareOfIndexView = 0.25

/**
 * Reassigns each primitive's range in the shared index array so that index accessors sharing a
 * buffer view sit in the view's byte order (a converter may pack several meshes' indices into
 * one view, interleaved with other views), which lets the reader decode such a view straight
 * into the index array; any order is valid, since primitives carry their offsets. A compressed
 * index view is laid out element for element where the reader can decode it at full width
 * (GltfBufferReader.indexViewShape), leaving room for elements no primitive reads (our
 * converter leaves an unused accessor at the start of its 16-bit view); others back to back.
 * Returns the index array's length.
 */
function layOutIndices(
  plans: { primitive: DecodedPrimitive; indexAccessor: number | null }[],
  reader: GltfBufferReader,
): number {
  const keyed = plans.map((plan, order) => {
    const placement = plan.indexAccessor === null ? null : reader.viewPlacement(plan.indexAccessor)
    return { plan, placement, order }
  })
  const groups = new Map<string, { viewIndex: number | null; members: typeof keyed }>()
  for (const member of keyed) {
    const group = member.placement ? `view ${member.placement.viewIndex}` : `plan ${member.order}`
    const members = groups.get(group)?.members ?? []
    if (members.length === 0) {
      groups.set(group, { viewIndex: member.placement?.viewIndex ?? null, members })
    }
    members.push(member)
  }
  let indexOffset = 0
  for (const { viewIndex, members } of groups.values()) {
    members.sort((a, b) => (a.placement?.byteOffset ?? 0) - (b.placement?.byteOffset ?? 0))
    const shape = viewIndex === null ? null : reader.indexViewShape(viewIndex)
    const elementStarts = shape ? elementsInView(members, shape) : null
    if (shape && elementStarts) {
      members.forEach(({ plan }, index) => {
        plan.primitive.indexOffset = indexOffset + elementStarts[index]!
      })
      indexOffset += shape.count
      continue
    }
    for (const { plan } of members) {
      plan.primitive.indexOffset = indexOffset
      indexOffset += plan.primitive.indexCount
    }
  }
  return indexOffset
}

/**
 * Where each member's indices start in its view (in elements), when they can be laid out that
 * way: distinct accessors on element boundaries, in ascending ranges that do not overlap, within
 * the view, and few enough elements left unread ({@link maxUnreadShareOfIndexView}); else null.
 */
function elementsInView(
  members: {
    plan: { primitive: DecodedPrimitive; indexAccessor: number | null }
    placement: { byteOffset: number } | null
  }[],
  shape: { elementBytes: number; count: number },
): number[] | null {
  const starts: number[] = []
  const accessors = new Set<number | null>()
  let end = 0
  let readCount = 0
  for (const { plan, placement } of members) {
    const start = (placement?.byteOffset ?? 0) / shape.elementBytes
    if (!Number.isInteger(start) || start < end || accessors.has(plan.indexAccessor)) return null
    accessors.add(plan.indexAccessor)
    starts.push(start)
    end = start + plan.primitive.indexCount
    readCount += plan.primitive.indexCount
  }
  const unreadCount = shape.count - readCount
  if (end > shape.count || unreadCount > readCount * maxUnreadShareOfIndexView) return null
  return starts
}

/**
 * Walks the default scene (or, without scenes, every root node) and returns each node that has a
 * mesh with its world matrix. glTF requires the node graph to be a forest; a node reached twice
 * (a cycle or a shared child) is refused, so a hostile file cannot loop the walk.
 */
function collectInstances(json: Json, meshCount: number): DecodedInstance[] {
  const nodes = list(json, 'nodes').map((node, index) => record(node, `node ${index}`))
  const childrenOf = nodes.map((node, index) => {
    const children = node.children === undefined ? [] : node.children
    if (!Array.isArray(children) || !children.every((child) => integerOrNull(child) !== null)) {
      throw new SbmError(`node ${index} has malformed children`)
    }
    for (const child of children as number[]) {
      if (child >= nodes.length) throw new SbmError(`node ${index} has a missing child ${child}`)
    }
    return children as number[]
  })
  let roots: number[]
  const scenes = list(json, 'scenes')
  if (scenes.length > 0) {
    const sceneIndex = integerOrNull(json.scene) ?? 0
    const scene = record(scenes[sceneIndex], `scene ${sceneIndex}`)
    const sceneNodes = scene.nodes === undefined ? [] : scene.nodes
    if (!Array.isArray(sceneNodes) || !sceneNodes.every((node) => integerOrNull(node) !== null)) {
      throw new SbmError(`scene ${sceneIndex} has malformed nodes`)
    }
    roots = sceneNodes as number[]
  } else {
    const isChild = new Set(childrenOf.flat())
    roots = nodes.map((_, index) => index).filter((index) => !isChild.has(index))
  }

  const instances: DecodedInstance[] = []
  const visited = new Set<number>()
  const stack: { node: number; parent: Matrix4 }[] = roots
    .map((node) => ({ node, parent: new Matrix4() }))
    .reverse()
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!
    if (node >= nodes.length) throw new SbmError(`a scene lists missing node ${node}`)
    if (visited.has(node))
      throw new SbmError(`node ${node} is reached twice (a cycle or shared child)`)
    visited.add(node)
    const definition = nodes[node]!
    const world = parent.clone().multiply(localMatrix(definition, node))
    const meshIndex = integerOrNull(definition.mesh)
    if (meshIndex !== null) {
      if (meshIndex >= meshCount) throw new SbmError(`node ${node} uses missing mesh ${meshIndex}`)
      instances.push({
        nodeIndex: node,
        name: typeof definition.name === 'string' ? definition.name : '',
        meshIndex,
        matrixWorld: world.elements.slice(),
      })
    }
    const children = childrenOf[node]!
    for (let index = children.length - 1; index >= 0; index--) {
      stack.push({ node: children[index]!, parent: world })
    }
  }
  return instances
}

function localMatrix(node: Json, index: number): Matrix4 {
  if (node.matrix !== undefined) {
    const elements = node.matrix
    if (
      !Array.isArray(elements) ||
      elements.length !== 16 ||
      !elements.every((value) => typeof value === 'number' && Number.isFinite(value))
    ) {
      throw new SbmError(`node ${index} has a malformed matrix`)
    }
    return new Matrix4().fromArray(elements as number[])
  }
  const translation = numbersOr(node.translation, [0, 0, 0])
  const rotation = numbersOr(node.rotation, [0, 0, 0, 1])
  const scale = numbersOr(node.scale, [1, 1, 1])
  return new Matrix4().compose(
    new Vector3(...translation),
    new Quaternion(...rotation),
    new Vector3(...scale),
  )
}

/** Builds a BVH over one primitive in place: three-mesh-bvh reorders that primitive's indices. */
function buildBvhRoots(
  positions: Float32Array,
  indices: Uint32Array,
  primitive: DecodedPrimitive,
): ArrayBuffer[] {
  const geometry = new BufferGeometry()
  geometry.setAttribute(
    'position',
    new BufferAttribute(
      positions.subarray(
        primitive.vertexOffset * 3,
        (primitive.vertexOffset + primitive.vertexCount) * 3,
      ),
      3,
    ),
  )
  geometry.setIndex(
    new BufferAttribute(
      indices.subarray(primitive.indexOffset, primitive.indexOffset + primitive.indexCount),
      1,
    ),
  )
  const bvh = new MeshBVH(geometry, { setBoundingBox: false })
  return MeshBVH.serialize(bvh, { cloneBuffers: false }).roots
}

/** The union of the root nodes' bounds: a BVH root node is the primitive's bounding box. */
function boundsOfRoots(roots: ArrayBuffer[]): DecodedPrimitive['boundingBox'] {
  const box: DecodedPrimitive['boundingBox'] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ]
  for (const root of roots) {
    const bounds = new Float32Array(root, 0, 6)
    for (let axis = 0; axis < 3; axis++) {
      box[axis] = Math.min(box[axis]!, bounds[axis]!)
      box[axis + 3] = Math.max(box[axis + 3]!, bounds[axis + 3]!)
    }
  }
  return box
}

/** The box of a primitive's vertices (what its BVH's root would bound, when none is decoded). */
function boxOfVertices(
  positions: Float32Array,
  primitive: DecodedPrimitive,
): DecodedPrimitive['boundingBox'] {
  const box: DecodedPrimitive['boundingBox'] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ]
  const end = (primitive.vertexOffset + primitive.vertexCount) * 3
  for (let at = primitive.vertexOffset * 3; at < end; at += 3) {
    for (let axis = 0; axis < 3; axis++) {
      const value = positions[at + axis]!
      if (value < box[axis]!) box[axis] = value
      if (value > box[axis + 3]!) box[axis + 3] = value
    }
  }
  return box
}

/** Box-centred bounding sphere, the way three.js computes it, done here so the main thread need not. */
function boundingSphereOf(
  positions: Float32Array,
  primitive: DecodedPrimitive,
): DecodedPrimitive['boundingSphere'] {
  const [minX, minY, minZ, maxX, maxY, maxZ] = primitive.boundingBox
  const centerX = (minX + maxX) / 2
  const centerY = (minY + maxY) / 2
  const centerZ = (minZ + maxZ) / 2
  let radiusSquared = 0
  const end = (primitive.vertexOffset + primitive.vertexCount) * 3
  for (let at = primitive.vertexOffset * 3; at < end; at += 3) {
    const dx = positions[at]! - centerX
    const dy = positions[at + 1]! - centerY
    const dz = positions[at + 2]! - centerZ
    radiusSquared = Math.max(radiusSquared, dx * dx + dy * dy + dz * dz)
  }
  return [centerX, centerY, centerZ, Math.sqrt(radiusSquared)]
}

/** Area-weighted vertex normals for a primitive stored without them. */
function computeVertexNormals(
  positions: Float32Array,
  indices: Uint32Array,
  primitive: DecodedPrimitive,
  normals: Float32Array,
): void {
  const base = primitive.vertexOffset
  for (let at = primitive.indexOffset; at < primitive.indexOffset + primitive.indexCount; at += 3) {
    const a = (base + indices[at]!) * 3
    const b = (base + indices[at + 1]!) * 3
    const c = (base + indices[at + 2]!) * 3
    const abX = positions[b]! - positions[a]!
    const abY = positions[b + 1]! - positions[a + 1]!
    const abZ = positions[b + 2]! - positions[a + 2]!
    const acX = positions[c]! - positions[a]!
    const acY = positions[c + 1]! - positions[a + 1]!
    const acZ = positions[c + 2]! - positions[a + 2]!
    const normalX = abY * acZ - abZ * acY
    const normalY = abZ * acX - abX * acZ
    const normalZ = abX * acY - abY * acX
    for (const vertex of [a, b, c]) {
      normals[vertex] = normals[vertex]! + normalX
      normals[vertex + 1] = normals[vertex + 1]! + normalY
      normals[vertex + 2] = normals[vertex + 2]! + normalZ
    }
  }
  const end = (base + primitive.vertexCount) * 3
  for (let at = base * 3; at < end; at += 3) {
    const length = Math.hypot(normals[at]!, normals[at + 1]!, normals[at + 2]!)
    if (length > 0) {
      normals[at] = normals[at]! / length
      normals[at + 1] = normals[at + 1]! / length
      normals[at + 2] = normals[at + 2]! / length
    }
  }
}

function readTextureReference(value: unknown): DecodedTextureReference | null {
  if (typeof value !== 'object' || value === null) return null
  const reference = value as Json
  const textureIndex = integerOrNull(reference.index)
  if (textureIndex === null) return null
  const transform = (reference.extensions as Json | undefined)?.KHR_texture_transform as
    | Json
    | undefined
  if (!transform) return { textureIndex }
  return {
    textureIndex,
    transform: {
      offset: numbersOr(transform.offset, [0, 0]),
      scale: numbersOr(transform.scale, [1, 1]),
      rotation: numberOr(transform.rotation, 0),
    },
  }
}

function readMaterial(value: unknown, index: number): DecodedMaterial {
  const material = record(value, `material ${index}`)
  const pbr = (material.pbrMetallicRoughness ?? {}) as Json
  const normal = (material.normalTexture ?? {}) as Json
  const alphaMode = material.alphaMode
  const extensions = (material.extensions ?? {}) as Json
  return {
    name: typeof material.name === 'string' ? material.name : '',
    baseColorFactor: numbersOr(pbr.baseColorFactor, [1, 1, 1, 1]),
    baseColorTexture: readTextureReference(pbr.baseColorTexture),
    metallicFactor: numberOr(pbr.metallicFactor, 1),
    roughnessFactor: numberOr(pbr.roughnessFactor, 1),
    metallicRoughnessTexture: readTextureReference(pbr.metallicRoughnessTexture),
    normalTexture: readTextureReference(material.normalTexture),
    normalScale: numberOr(normal.scale, 1),
    occlusionTexture: readTextureReference(material.occlusionTexture),
    emissiveFactor: numbersOr(material.emissiveFactor, [0, 0, 0]),
    emissiveTexture: readTextureReference(material.emissiveTexture),
    alphaMode: alphaMode === 'MASK' || alphaMode === 'BLEND' ? alphaMode : 'OPAQUE',
    alphaCutoff: numberOr(material.alphaCutoff, 0.5),
    isDoubleSided: material.doubleSided === true,
    isUnlit: extensions.KHR_materials_unlit !== undefined,
  }
}

function readTexture(json: Json) {
  const samplers = list(json, 'samplers')
  return (value: unknown, index: number): DecodedTexture => {
    const texture = record(value, `texture ${index}`)
    const extensions = (texture.extensions ?? {}) as Json
    const webp = (extensions.EXT_texture_webp ?? {}) as Json
    const samplerIndex = integerOrNull(texture.sampler)
    const sampler = (samplerIndex === null ? {} : (samplers[samplerIndex] ?? {})) as Json
    return {
      // A WebP source is preferred when given: browsers decode it, and it is what the author chose.
      imageIndex: integerOrNull(webp.source) ?? integerOrNull(texture.source),
      magFilter: integerOrNull(sampler.magFilter),
      minFilter: integerOrNull(sampler.minFilter),
      wrapS: integerOrNull(sampler.wrapS) ?? 10497,
      wrapT: integerOrNull(sampler.wrapT) ?? 10497,
    }
  }
}

/** Copies every embedded image into one buffer, so images cross threads as a single transfer. */
function collectImages(
  json: Json,
  reader: GltfBufferReader,
): { images: DecodedImage[]; imageBytes: Uint8Array<ArrayBuffer> | null } {
  const definitions = list(json, 'images')
  const sources = definitions.map((value, index) => {
    const image = record(value, `image ${index}`)
    const viewIndex = integerOrNull(image.bufferView)
    if (viewIndex === null) return null
    return {
      mimeType: typeof image.mimeType === 'string' ? image.mimeType : 'application/octet-stream',
      bytes: reader.viewBytes(viewIndex),
    }
  })
  const totalBytes = sources.reduce((sum, source) => sum + (source?.bytes.byteLength ?? 0), 0)
  if (totalBytes === 0) {
    return {
      images: sources.map((source) => ({
        mimeType: source?.mimeType ?? '',
        byteOffset: 0,
        byteLength: 0,
      })),
      imageBytes: null,
    }
  }
  const imageBytes = new Uint8Array(totalBytes)
  let offset = 0
  const images = sources.map((source) => {
    if (!source) return { mimeType: '', byteOffset: offset, byteLength: 0 }
    imageBytes.set(source.bytes, offset)
    const image = {
      mimeType: source.mimeType,
      byteOffset: offset,
      byteLength: source.bytes.byteLength,
    }
    offset += source.bytes.byteLength
    return image
  })
  return { images, imageBytes }
}
