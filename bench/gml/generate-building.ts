import type {
  ParsedCell,
  ParsedIndoorGml,
  ParsedState,
  ParsedTransition,
} from '../../workers/indoor-route/gml-parser'

/**
 * A seeded, reproducible multi-storey building network shaped like real IndoorGML exports:
 * on every storey a grid of corridor junctions with rooms along them (room → door → corridor
 * LineStrings), doors between some neighbouring rooms, stair cores whose flights zigzag up
 * between storeys, and an elevator shaft. Used by the routing and parsing benchmarks.
 */
export interface BuildingRecipe {
  seed: number
  storeys: number
  /** Corridor junctions per storey = rows × columns. */
  corridorRows: number
  corridorColumns: number
  /** Rooms hanging off each corridor junction. */
  roomsPerJunction: number
  /** Stair cores (each joins every pair of consecutive storeys). */
  stairCores: number
  /** Share of Transitions also written in reverse, as exporters like FJK-Haus do. */
  reverseShare: number
  storeyHeight: number
}

/** A building of about 200,000 States: the routing benchmark's large case. */
export const LARGE_BUILDING: BuildingRecipe = {
  seed: 20_261_125,
  storeys: 20,
  corridorRows: 50,
  corridorColumns: 50,
  roomsPerJunction: 3,
  stairCores: 6,
  reverseShare: 0,
  storeyHeight: 3.5,
}

/** A large real-world building, a few thousand States: the worker round-trip case. */
export const OFFICE_BUILDING: BuildingRecipe = {
  seed: 7,
  storeys: 12,
  corridorRows: 8,
  corridorColumns: 20,
  roomsPerJunction: 2,
  stairCores: 3,
  reverseShare: 0.3,
  storeyHeight: 3.6,
}

/** mulberry32: tiny, fast, and the same sequence on every machine. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), state | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

const JUNCTION_SPACING = 8

/**
 * Builds the network as the parser would have read it, so benchmarks can skip XML when XML is
 * not what they measure. Ids: States S…, CellSpaces C…, Transitions T….
 */
export function generateBuilding(recipe: BuildingRecipe): ParsedIndoorGml {
  const random = createRandom(recipe.seed)
  const jitter = (amount: number) => (random() - 0.5) * 2 * amount
  const states: ParsedState[] = []
  const cells: ParsedCell[] = []
  const transitions: ParsedTransition[] = []
  const layerId = 'navigation'

  const addState = (name: string, storey: number, x: number, y: number, z: number): number => {
    const index = states.length
    const id = `S${index + 1}`
    const cellId = `C${index + 1}`
    states.push({
      id,
      elementName: 'State',
      layerId,
      name,
      description: `storey="${storey + 1}"`,
      dualityRef: cellId,
      connectsRefs: [],
      position: [x, y, z],
    })
    cells.push({
      id: cellId,
      elementName: 'GeneralSpace',
      name,
      description: `storey="${storey + 1}"`,
      dualityRef: id,
      storey: undefined,
    })
    return index
  }
  const addTransition = (from: number, to: number, via: number[]) => {
    const a = states[from]!.position!
    const b = states[to]!.position!
    const write = (first: number, second: number, coordinates: number[]) => {
      const id = `T${transitions.length + 1}`
      transitions.push({
        id,
        layerId,
        name: undefined,
        description: undefined,
        connectsRefs: [states[first]!.id, states[second]!.id],
        coordinates,
      })
      states[first]!.connectsRefs.push(id)
      states[second]!.connectsRefs.push(id)
    }
    const coordinates = [...a, ...via, ...b]
    write(from, to, coordinates)
    if (random() < recipe.reverseShare) {
      const reversed: number[] = []
      for (let offset = coordinates.length - 3; offset >= 0; offset -= 3) {
        reversed.push(coordinates[offset]!, coordinates[offset + 1]!, coordinates[offset + 2]!)
      }
      write(to, from, reversed)
    }
  }

  const { corridorRows: rows, corridorColumns: columns } = recipe
  const stairJunctions = Array.from({ length: recipe.stairCores }, () => ({
    row: Math.floor(random() * rows),
    column: Math.floor(random() * columns),
  }))
  const elevatorJunction = { row: rows >> 1, column: columns >> 1 }
  const stairsByStorey: number[][] = []
  const elevatorByStorey: number[] = []

  for (let storey = 0; storey < recipe.storeys; storey++) {
    const floorZ = storey * recipe.storeyHeight
    const walkZ = floorZ + 0.5
    const junctions: number[] = []
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        junctions.push(
          addState(
            `F${storey + 1}-J${row}-${column}`,
            storey,
            column * JUNCTION_SPACING + jitter(0.3),
            row * JUNCTION_SPACING + jitter(0.3),
            walkZ,
          ),
        )
      }
    }
    const junctionAt = (row: number, column: number) => junctions[row * columns + column]!
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        // Every row is a corridor; cross corridors run at every other column, plus the ends.
        if (column + 1 < columns)
          addTransition(junctionAt(row, column), junctionAt(row, column + 1), [])
        const isCrossCorridor = column % 2 === 0 || column === columns - 1
        if (row + 1 < rows && isCrossCorridor) {
          addTransition(junctionAt(row, column), junctionAt(row + 1, column), [])
        }
      }
    }
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const junction = junctionAt(row, column)
        const [jx, jy] = states[junction]!.position!
        let previousRoom = -1
        for (let room = 0; room < recipe.roomsPerJunction; room++) {
          const side = room % 2 === 0 ? 1 : -1
          const along = (room - (recipe.roomsPerJunction - 1) / 2) * 2.2
          const doorX = jx + along
          const doorY = jy + side * 1.2
          const roomIndex = addState(
            `F${storey + 1}-R${row}-${column}-${room}`,
            storey,
            doorX + jitter(0.8),
            jy + side * (2.6 + random() * 0.8),
            walkZ,
          )
          addTransition(roomIndex, junction, [doorX, doorY, walkZ])
          if (previousRoom >= 0 && room % 2 === 0 && random() < 0.25) {
            const [px, py] = states[previousRoom]!.position!
            const [rx, ry] = states[roomIndex]!.position!
            addTransition(previousRoom, roomIndex, [(px + rx) / 2, (py + ry) / 2, walkZ])
          }
          if (room % 2 === 0) previousRoom = roomIndex
        }
      }
    }
    const stairs = stairJunctions.map(({ row, column }, core) => {
      const junction = junctionAt(row, column)
      const [jx, jy] = states[junction]!.position!
      const stair = addState(`F${storey + 1}-Stair${core}`, storey, jx + 2.5, jy - 2.5, walkZ)
      addTransition(stair, junction, [jx + 1.2, jy - 1.2, walkZ])
      return stair
    })
    stairsByStorey.push(stairs)
    const [ex, ey] = states[junctionAt(elevatorJunction.row, elevatorJunction.column)]!.position!
    const elevator = addState(`F${storey + 1}-Elevator`, storey, ex - 2.5, ey + 2.5, walkZ)
    addTransition(elevator, junctionAt(elevatorJunction.row, elevatorJunction.column), [])
    elevatorByStorey.push(elevator)
  }

  for (let storey = 0; storey + 1 < recipe.storeys; storey++) {
    stairsByStorey[storey]!.forEach((lower, core) => {
      const upper = stairsByStorey[storey + 1]![core]!
      const [x, y, z] = states[lower]!.position!
      const landingZ = z + recipe.storeyHeight / 2
      // Two flights with a landing: the real walking length, well above the straight line.
      addTransition(lower, upper, [
        x + 3,
        y,
        landingZ - 0.2,
        x + 3,
        y + 1.5,
        landingZ,
        x,
        y + 1.5,
        landingZ,
      ])
    })
    addTransition(elevatorByStorey[storey]!, elevatorByStorey[storey + 1]!, [])
  }

  return {
    rootElement: 'IndoorFeatures',
    layers: [{ id: layerId }],
    states,
    transitions,
    cells,
    interLayerConnections: [],
    warnings: [],
    sizeRead: 0,
  }
}

const format = (value: number) => value.toFixed(3)

function boxSolid(id: string, x: number, y: number, z: number, random: () => number): string {
  const halfWidth = 1 + random() * 1.5
  const halfDepth = 1 + random() * 1.5
  const bottom = z - 0.5
  const top = bottom + 3
  const corner = (cx: number, cy: number, cz: number) =>
    `<gml:pos>${format(cx)} ${format(cy)} ${format(cz)}</gml:pos>`
  const x0 = x - halfWidth
  const x1 = x + halfWidth
  const y0 = y - halfDepth
  const y1 = y + halfDepth
  const faces = [
    [
      [x0, y0, bottom],
      [x0, y1, bottom],
      [x1, y1, bottom],
      [x1, y0, bottom],
    ],
    [
      [x0, y0, top],
      [x1, y0, top],
      [x1, y1, top],
      [x0, y1, top],
    ],
    [
      [x0, y0, bottom],
      [x1, y0, bottom],
      [x1, y0, top],
      [x0, y0, top],
    ],
    [
      [x1, y0, bottom],
      [x1, y1, bottom],
      [x1, y1, top],
      [x1, y0, top],
    ],
    [
      [x1, y1, bottom],
      [x0, y1, bottom],
      [x0, y1, top],
      [x1, y1, top],
    ],
    [
      [x0, y1, bottom],
      [x0, y0, bottom],
      [x0, y0, top],
      [x0, y1, top],
    ],
  ] as const
  const polygons = faces
    .map((ring, face) => {
      const points = [...ring, ring[0]].map(([px, py, pz]) => corner(px, py, pz)).join('')
      return `<gml:surfaceMember><gml:Polygon gml:id="${id}-F${face}"><gml:exterior><gml:LinearRing>${points}</gml:LinearRing></gml:exterior></gml:Polygon></gml:surfaceMember>\n`
    })
    .join('')
  return `<gml:Solid gml:id="${id}-G"><gml:exterior><gml:Shell>\n${polygons}</gml:Shell></gml:exterior></gml:Solid>`
}

/**
 * Serialises a network as IndoorGML 1.0 text in chunks (never one giant string), with
 * `core:`/`navi:` prefixes like the PNU and KU files. With `withCellGeometry`, every CellSpace
 * gets a box Solid, which is what makes up most of the bytes of real files.
 */
export function* writeIndoorGml(
  network: ParsedIndoorGml,
  options: { withCellGeometry: boolean; seed: number },
): Generator<string> {
  const random = createRandom(options.seed)
  const statesById = new Map(network.states.map((state) => [state.id, state]))
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<core:IndoorFeatures xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:core="http://www.opengis.net/indoorgml/1.0/core" xmlns:navi="http://www.opengis.net/indoorgml/1.0/navigation" gml:id="generated">\n'
  yield '<core:primalSpaceFeatures><core:PrimalSpaceFeatures gml:id="primal">\n'
  let buffer = ''
  for (const cell of network.cells) {
    const position = statesById.get(cell.dualityRef ?? '')?.position ?? [0, 0, 0]
    const geometry = options.withCellGeometry
      ? `<core:cellSpaceGeometry><core:Geometry3D>${boxSolid(cell.id, position[0], position[1], position[2], random)}</core:Geometry3D></core:cellSpaceGeometry>`
      : ''
    buffer += `<core:cellSpaceMember><navi:${cell.elementName} gml:id="${cell.id}"><gml:description>${cell.description ?? ''}</gml:description><gml:name>${cell.name ?? cell.id}</gml:name>${geometry}<core:duality xlink:href="#${cell.dualityRef}"/></navi:${cell.elementName}></core:cellSpaceMember>\n`
    if (buffer.length > 1 << 20) {
      yield buffer
      buffer = ''
    }
  }
  buffer += '</core:PrimalSpaceFeatures></core:primalSpaceFeatures>\n'
  buffer +=
    '<core:multiLayeredGraph><core:MultiLayeredGraph gml:id="graph"><core:spaceLayers gml:id="layers">\n'
  for (const layer of network.layers) {
    buffer += `<core:spaceLayerMember><core:SpaceLayer gml:id="${layer.id}"><core:nodes gml:id="${layer.id}-nodes">\n`
    for (const state of network.states) {
      if (state.layerId !== layer.id) continue
      const connects = state.connectsRefs
        .map((id) => `<core:connects xlink:href="#${id}"/>`)
        .join('')
      const [x, y, z] = state.position ?? [0, 0, 0]
      buffer += `<core:stateMember><core:State gml:id="${state.id}"><gml:description>${state.description ?? ''}</gml:description><gml:name>${state.name ?? state.id}</gml:name><core:duality xlink:href="#${state.dualityRef}"/>${connects}<core:geometry><gml:Point gml:id="P-${state.id}"><gml:pos srsDimension="3">${format(x)} ${format(y)} ${format(z)}</gml:pos></gml:Point></core:geometry></core:State></core:stateMember>\n`
      if (buffer.length > 1 << 20) {
        yield buffer
        buffer = ''
      }
    }
    buffer += `</core:nodes><core:edges gml:id="${layer.id}-edges">\n`
    for (const transition of network.transitions) {
      if (transition.layerId !== layer.id) continue
      const connects = transition.connectsRefs
        .map((id) => `<core:connects xlink:href="#${id}"/>`)
        .join('')
      const points: string[] = []
      for (let offset = 0; offset < transition.coordinates.length; offset += 3) {
        points.push(
          `${format(transition.coordinates[offset]!)} ${format(transition.coordinates[offset + 1]!)} ${format(transition.coordinates[offset + 2]!)}`,
        )
      }
      buffer += `<core:transitionMember><core:Transition gml:id="${transition.id}"><core:weight>0.0</core:weight>${connects}<core:geometry><gml:LineString gml:id="L-${transition.id}"><gml:posList srsDimension="3">${points.join(' ')}</gml:posList></gml:LineString></core:geometry></core:Transition></core:transitionMember>\n`
      if (buffer.length > 1 << 20) {
        yield buffer
        buffer = ''
      }
    }
    buffer += '</core:edges></core:SpaceLayer></core:spaceLayerMember>\n'
  }
  buffer +=
    '</core:spaceLayers></core:MultiLayeredGraph></core:multiLayeredGraph>\n</core:IndoorFeatures>\n'
  yield buffer
}
