import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { GmlError } from './gml-errors'

/** A State (a node of the navigation network) as the file wrote it, references unresolved. */
export interface ParsedState {
  id: string
  /** Local element name: `State`, or an extension in its substitution group (PSExt, navi). */
  elementName: string
  layerId: string | undefined
  name: string | undefined
  description: string | undefined
  /** The CellSpace this State is the dual of (`duality`), without the leading `#`. */
  dualityRef: string | undefined
  /** Transition ids listed in `connects`, without `#`. */
  connectsRefs: string[]
  /** `gml:Point` position, or undefined when the State has no usable point. */
  position: [number, number, number] | undefined
}

/** A Transition (an edge) as written: its two State references and its LineString. */
export interface ParsedTransition {
  id: string
  layerId: string | undefined
  name: string | undefined
  description: string | undefined
  /** Normally two State ids; broken files put CellSpace ids here (repaired later). */
  connectsRefs: string[]
  /** The LineString as flat x, y, z triples (z = 0 for 2D input). Empty when absent. */
  coordinates: number[]
}

/** A CellSpace of the primal space: only what resolving duality and storeys needs. */
export interface ParsedCell {
  id: string
  elementName: string
  name: string | undefined
  description: string | undefined
  dualityRef: string | undefined
  /** A `storey` child element, written by some navi exporters. */
  storey: string | undefined
}

/** An InterLayerConnection: States of different SpaceLayers that share or contain space. */
export interface ParsedInterLayerConnection {
  id: string
  interConnectsRefs: string[]
  connectedLayerRefs: string[]
}

/** A SpaceLayer: the scope that States and Transitions inside it belong to. */
export interface ParsedLayer {
  id: string
}

/** Something the parser skipped or could not read, kept so the caller can report it. */
export interface ParseWarning {
  code: 'duplicateId' | 'invalidCoordinates' | 'missingId'
  elementId: string | undefined
  message: string
}

/** Everything read from one IndoorGML document, before references are resolved. */
export interface ParsedIndoorGml {
  /** Local name of the document element, e.g. `IndoorFeatures`. */
  rootElement: string
  layers: ParsedLayer[]
  states: ParsedState[]
  transitions: ParsedTransition[]
  cells: ParsedCell[]
  interLayerConnections: ParsedInterLayerConnection[]
  warnings: ParseWarning[]
  /** Bytes (or characters for text input) the parser consumed. */
  sizeRead: number
}

/** How far a parse has got: `read` of `total` bytes (characters when the input was text). */
export interface GmlParseProgress {
  read: number
  total: number | undefined
  unit: 'bytes' | 'characters'
}

/** Limits and hooks of one parse. */
export interface GmlParseOptions {
  /** Refuse input larger than this (bytes, or characters for text). Default 512 MiB. */
  maxSizeBytes?: number
  /** Refuse elements nested deeper than this. Real IndoorGML stays under 30. Default 256. */
  maxDepth?: number
  /** Called after each consumed chunk; the worker throttles before posting it on. */
  onProgress?: (progress: GmlParseProgress) => void
  /** Checked between chunks; an aborted parse throws `gml.aborted`. */
  signal?: AbortSignal
  /** Expected input size, for progress. Known for text and buffers, optional for streams. */
  totalSize?: number
}

/** Default size ceiling: a 512 MiB text document is already far beyond real building files. */
export const DEFAULT_MAX_GML_SIZE_BYTES = 512 * 1024 * 1024
/** Default element depth ceiling. */
export const DEFAULT_MAX_GML_DEPTH = 256
/** Bytes looked at to choose the text decoding (BOM, XML declaration). */
const ENCODING_SNIFF_SIZE = 256
/** Slices of large inputs, so progress and abort are seen while parsing. */
const SLICE_SIZE = 1024 * 1024

const FeatureKind = { None: 0, State: 1, Transition: 2, Cell: 3, InterLayerConnection: 4 } as const
type FeatureKind = (typeof FeatureKind)[keyof typeof FeatureKind]

const TextTarget = { None: 0, Name: 1, Description: 2, Storey: 3, Pos: 4, PosList: 5 } as const
type TextTarget = (typeof TextTarget)[keyof typeof TextTarget]

function localName(qualifiedName: string): string {
  const colon = qualifiedName.indexOf(':')
  return colon < 0 ? qualifiedName : qualifiedName.slice(colon + 1)
}

function attributeByLocalName(
  attributes: Record<string, string>,
  wanted: string,
): string | undefined {
  for (const key in attributes) {
    if (localName(key) === wanted) return attributes[key]
  }
  return undefined
}

function elementId(attributes: Record<string, string>): string | undefined {
  return attributes['gml:id'] ?? attributeByLocalName(attributes, 'id')
}

/** `#id` → `id`; `other.gml#id` keeps only the fragment, since we resolve within one file. */
function referenceOf(attributes: Record<string, string>): string | undefined {
  const href = attributes['xlink:href'] ?? attributeByLocalName(attributes, 'href')
  if (href === undefined) return undefined
  const hash = href.lastIndexOf('#')
  const id = (hash < 0 ? href : href.slice(hash + 1)).trim()
  return id.length > 0 ? id : undefined
}

/** Whitespace-separated numbers; undefined if any token is not a finite number. */
function parseNumbers(text: string): number[] | undefined {
  const numbers: number[] = []
  const length = text.length
  let start = -1
  for (let index = 0; index <= length; index++) {
    const code = index < length ? text.charCodeAt(index) : 32
    const isSpace = code === 32 || code === 10 || code === 13 || code === 9 || code === 44
    if (isSpace) {
      if (start >= 0) {
        const value = Number(text.slice(start, index))
        if (!Number.isFinite(value)) return undefined
        numbers.push(value)
        start = -1
      }
    } else if (start < 0) {
      start = index
    }
  }
  return numbers
}

/**
 * Appends points of `dimension` (2 or 3) to a flat xyz array; 2D points get z = 0.
 * A dimension the data does not divide into is refused rather than guessed.
 */
function appendPoints(target: number[], numbers: number[], dimension: number): boolean {
  if (dimension !== 2 && dimension !== 3) return false
  if (numbers.length === 0 || numbers.length % dimension !== 0) return false
  for (let index = 0; index < numbers.length; index += dimension) {
    target.push(numbers[index]!, numbers[index + 1]!, dimension === 3 ? numbers[index + 2]! : 0)
  }
  return true
}

/** `posList` without `srsDimension`: IndoorGML is 3D, so 3 unless the count only fits 2. */
function inferredDimension(count: number): number {
  if (count % 3 === 0) return 3
  if (count % 2 === 0) return 2
  return 3
}

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  return Number.isInteger(value) && value > 0 ? value : undefined
}

function concatBytes(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.byteLength + second.byteLength)
  joined.set(first)
  joined.set(second, first.byteLength)
  return joined
}

/** Picks the text decoder from a byte-order mark or the XML declaration's encoding. */
function decoderFor(firstBytes: Uint8Array): TextDecoder {
  if (firstBytes[0] === 0xff && firstBytes[1] === 0xfe) return new TextDecoder('utf-16le')
  if (firstBytes[0] === 0xfe && firstBytes[1] === 0xff) return new TextDecoder('utf-16be')
  const head = new TextDecoder('latin1').decode(firstBytes.subarray(0, 200))
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]
  if (declared) {
    try {
      return new TextDecoder(declared)
    } catch {
      // An encoding the platform does not know: UTF-8 is the XML default and usually right.
    }
  }
  return new TextDecoder('utf-8')
}

/**
 * A push parser for IndoorGML 1.0. Feed it text or bytes in any chunking, then call
 * `finish()`. It keeps only the navigation network and the small parts of CellSpaces that
 * resolving references needs: cell geometry, the bulk of a real file, is never stored.
 *
 * Element names match by local name, case-insensitively, so default namespaces, any prefix
 * (`core:`, `ns5:`) and the lower-case `spaceLayer` of some exporters read the same. A child of
 * `stateMember`/`transitionMember`/`cellSpaceMember` is taken as a State/Transition/CellSpace
 * whatever its name, which covers substitution-group extensions like PSExt and navi spaces.
 *
 * Hostile input: a DOCTYPE is refused outright (so no entity is ever defined, let alone
 * expanded), nesting and size are capped, and a document that is not XML fails at its first
 * non-blank character.
 */
export class IndoorGmlParser {
  private readonly sax: SaxesParser<{ xmlns: false; position: true }>
  private readonly maxSize: number
  private readonly maxDepth: number
  private readonly options: GmlParseOptions
  private decoder: TextDecoder | undefined
  private pendingHead: Uint8Array | undefined
  private unit: 'bytes' | 'characters' | undefined
  private read = 0
  private sawContent = false
  private isFinished = false

  private readonly openNames: string[] = []
  private rootElement = ''
  private readonly layers: ParsedLayer[] = []
  private readonly states: ParsedState[] = []
  private readonly transitions: ParsedTransition[] = []
  private readonly cells: ParsedCell[] = []
  private readonly interLayerConnections: ParsedInterLayerConnection[] = []
  private readonly warnings: ParseWarning[] = []
  private readonly seenIds = new Set<string>()

  private layerId: string | undefined
  private layerDepth = -1
  private featureKind: FeatureKind = FeatureKind.None
  private featureDepth = -1
  private state: ParsedState | undefined
  private transition: ParsedTransition | undefined
  private cell: ParsedCell | undefined
  private connection: ParsedInterLayerConnection | undefined
  private hasInvalidCoordinates = false
  private geometryDimension: number | undefined
  private textTarget: TextTarget = TextTarget.None
  private textDepth = -1
  private textBuffer = ''
  private posDimension: number | undefined
  /** Depth of a child whose content is not read (an inline duality), or -1. */
  private skippedDepth = -1

  constructor(options: GmlParseOptions = {}) {
    this.options = options
    this.maxSize = options.maxSizeBytes ?? DEFAULT_MAX_GML_SIZE_BYTES
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_GML_DEPTH
    if (options.totalSize !== undefined && options.totalSize > this.maxSize) {
      throw this.tooLarge(options.totalSize)
    }
    this.sax = new SaxesParser({ xmlns: false, position: true })
    this.sax.on('doctype', () => {
      throw new GmlError(
        'gml.doctypeForbidden',
        'GML with a DOCTYPE is refused: document type definitions and entities are not allowed.',
      )
    })
    this.sax.on('error', (error) => {
      throw new GmlError('gml.malformedXml', `GML is not well-formed XML: ${error.message}`)
    })
    this.sax.on('opentag', (tag) => this.onOpenTag(tag))
    this.sax.on('closetag', () => this.onCloseTag())
    this.sax.on('text', (text) => {
      if (this.textTarget !== TextTarget.None) this.textBuffer += text
    })
    this.sax.on('cdata', (text) => {
      if (this.textTarget !== TextTarget.None) this.textBuffer += text
    })
  }

  /** Consumes decoded text. Do not mix with `writeBytes` in one parse. */
  writeText(text: string): void {
    this.unit ??= 'characters'
    for (let start = 0; start < text.length; start += SLICE_SIZE) {
      this.consume(text.slice(start, start + SLICE_SIZE), Math.min(SLICE_SIZE, text.length - start))
    }
  }

  /** Consumes raw bytes; the encoding comes from the BOM or the XML declaration. */
  writeBytes(bytes: Uint8Array): void {
    this.unit ??= 'bytes'
    if (!this.decoder) {
      // The encoding is decided on the first bytes, so hold tiny first chunks until there are
      // enough to see a byte-order mark or the XML declaration.
      const head = this.pendingHead ? concatBytes(this.pendingHead, bytes) : bytes
      if (head.byteLength < ENCODING_SNIFF_SIZE) {
        this.pendingHead = head
        this.countRead(bytes.byteLength)
        return
      }
      this.pendingHead = undefined
      this.decoder = decoderFor(head)
      this.read -= head.byteLength - bytes.byteLength
      bytes = head
    }
    for (let start = 0; start < bytes.byteLength; start += SLICE_SIZE) {
      const slice = bytes.subarray(start, start + SLICE_SIZE)
      this.consume(this.decoder.decode(slice, { stream: true }), slice.byteLength)
    }
  }

  /** Ends the input and returns what was read. Throws a GmlError for a broken document. */
  finish(): ParsedIndoorGml {
    if (this.isFinished) throw new Error('IndoorGmlParser.finish() called twice')
    this.isFinished = true
    if (this.pendingHead) {
      const head = this.pendingHead
      this.pendingHead = undefined
      this.decoder = decoderFor(head)
      this.read -= head.byteLength
      this.consume(this.decoder.decode(head, { stream: true }), head.byteLength)
    }
    if (this.decoder) {
      const rest = this.decoder.decode()
      if (rest.length > 0) this.sniff(rest)
      if (rest.length > 0) this.sax.write(rest)
    }
    if (!this.sawContent) throw new GmlError('gml.empty', 'The GML file is empty.')
    if (this.openNames.length > 0) {
      throw new GmlError(
        'gml.truncated',
        `The GML file ends early: <${this.openNames[this.openNames.length - 1]}> and ${this.openNames.length - 1} enclosing elements are never closed.`,
      )
    }
    this.sax.close()
    return {
      rootElement: this.rootElement,
      layers: this.layers,
      states: this.states,
      transitions: this.transitions,
      cells: this.cells,
      interLayerConnections: this.interLayerConnections,
      warnings: this.warnings,
      sizeRead: this.read,
    }
  }

  private countRead(size: number): void {
    if (this.options.signal?.aborted)
      throw new GmlError('gml.aborted', 'GML parsing was cancelled.')
    this.read += size
    if (this.read > this.maxSize) throw this.tooLarge(this.read)
  }

  private consume(text: string, size: number): void {
    this.countRead(size)
    if (text.length > 0) {
      this.sniff(text)
      this.sax.write(text)
    }
    this.options.onProgress?.({
      read: this.read,
      total: this.options.totalSize,
      unit: this.unit ?? 'bytes',
    })
  }

  /** Refuses non-XML at its first visible character instead of after reading all of it. */
  private sniff(text: string): void {
    if (this.sawContent) return
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index)
      if (code === 32 || code === 10 || code === 13 || code === 9 || code === 0xfeff) continue
      this.sawContent = true
      if (code !== 60) {
        throw new GmlError(
          'gml.notXml',
          'The file is not XML, so it cannot be IndoorGML (it does not start with "<").',
        )
      }
      return
    }
  }

  private tooLarge(size: number): GmlError {
    return new GmlError(
      'gml.tooLarge',
      `The GML file is too large: ${size} ${this.unit ?? 'bytes'} read, the limit is ${this.maxSize}.`,
    )
  }

  private onOpenTag(tag: SaxesTagPlain): void {
    const depth = this.openNames.length
    if (depth >= this.maxDepth) {
      throw new GmlError(
        'gml.tooDeep',
        `The GML file nests elements deeper than ${this.maxDepth} levels; it is refused.`,
      )
    }
    const local = localName(tag.name)
    const name = local.toLowerCase()
    const parent = depth > 0 ? this.openNames[depth - 1] : undefined
    this.openNames.push(name)
    if (depth === 0) this.rootElement = local

    if (this.featureKind === FeatureKind.None) {
      if (name === 'spacelayer' || parent === 'spacelayermember') {
        this.layerId = this.registerId(tag.attributes, local) ?? `layer-${this.layers.length + 1}`
        this.layerDepth = depth
        this.layers.push({ id: this.layerId })
      } else if (parent === 'statemember' || name === 'state') {
        this.startFeature(FeatureKind.State, depth)
        this.state = {
          id: this.registerId(tag.attributes, local) ?? '',
          elementName: local,
          layerId: this.layerId,
          name: undefined,
          description: undefined,
          dualityRef: undefined,
          connectsRefs: [],
          position: undefined,
        }
      } else if (parent === 'transitionmember' || name === 'transition') {
        this.startFeature(FeatureKind.Transition, depth)
        this.transition = {
          id: this.registerId(tag.attributes, local) ?? '',
          layerId: this.layerId,
          name: undefined,
          description: undefined,
          connectsRefs: [],
          coordinates: [],
        }
      } else if (parent === 'cellspacemember' || name === 'cellspace') {
        this.startFeature(FeatureKind.Cell, depth)
        this.cell = {
          id: this.registerId(tag.attributes, local) ?? '',
          elementName: local,
          name: undefined,
          description: undefined,
          dualityRef: undefined,
          storey: undefined,
        }
      } else if (parent === 'interlayerconnectionmember' || name === 'interlayerconnection') {
        this.startFeature(FeatureKind.InterLayerConnection, depth)
        this.connection = {
          id: this.registerId(tag.attributes, local) ?? '',
          interConnectsRefs: [],
          connectedLayerRefs: [],
        }
      }
      return
    }

    const isDirectChild = depth === this.featureDepth + 1
    if (isDirectChild) {
      switch (name) {
        case 'name':
          this.collectText(TextTarget.Name, depth)
          return
        case 'description':
          this.collectText(TextTarget.Description, depth)
          return
        case 'storey':
          if (this.featureKind === FeatureKind.Cell) this.collectText(TextTarget.Storey, depth)
          return
        case 'duality':
          this.onDuality(referenceOf(tag.attributes))
          // An inline CellSpace inside duality has positions of its own; they are not ours.
          this.skippedDepth = depth
          return
        case 'connects':
          this.onConnects(referenceOf(tag.attributes))
          return
        case 'interconnects':
        case 'connectedlayers':
          this.onInterLayerReference(name, referenceOf(tag.attributes))
          return
      }
    }
    if (this.skippedDepth >= 0) return
    if (this.featureKind === FeatureKind.State || this.featureKind === FeatureKind.Transition) {
      if (name === 'pos' || name === 'poslist') {
        this.posDimension =
          positiveInteger(tag.attributes.srsDimension) ??
          positiveInteger(attributeByLocalName(tag.attributes, 'srsDimension')) ??
          this.geometryDimension
        this.collectText(name === 'pos' ? TextTarget.Pos : TextTarget.PosList, depth)
      } else if (name === 'point' || name === 'linestring') {
        this.geometryDimension = positiveInteger(tag.attributes.srsDimension)
      }
    }
  }

  private onCloseTag(): void {
    const depth = this.openNames.length - 1
    this.openNames.pop()
    if (this.textTarget !== TextTarget.None && depth === this.textDepth) this.finishText()
    if (depth === this.skippedDepth) this.skippedDepth = -1
    if (depth === this.featureDepth) this.finishFeature()
    else if (depth === this.layerDepth) {
      this.layerId = undefined
      this.layerDepth = -1
    }
  }

  private startFeature(kind: FeatureKind, depth: number): void {
    this.featureKind = kind
    this.featureDepth = depth
    this.skippedDepth = -1
    this.hasInvalidCoordinates = false
    this.geometryDimension = undefined
  }

  private finishFeature(): void {
    switch (this.featureKind) {
      case FeatureKind.State:
        if (this.state && this.keep(this.state.id, 'State')) this.states.push(this.state)
        break
      case FeatureKind.Transition:
        if (this.transition && this.keep(this.transition.id, 'Transition')) {
          if (this.hasInvalidCoordinates) this.transition.coordinates = []
          this.transitions.push(this.transition)
        }
        break
      case FeatureKind.Cell:
        if (this.cell && this.cell.id !== '') this.cells.push(this.cell)
        break
      case FeatureKind.InterLayerConnection:
        if (this.connection) this.interLayerConnections.push(this.connection)
        break
    }
    this.featureKind = FeatureKind.None
    this.featureDepth = -1
    this.state = undefined
    this.transition = undefined
    this.cell = undefined
    this.connection = undefined
  }

  /** States and Transitions without an id cannot be referenced or reported; they are skipped. */
  private keep(id: string, what: string): boolean {
    if (id !== '') return true
    this.warnings.push({
      code: 'missingId',
      elementId: undefined,
      message: `A ${what} without gml:id was skipped.`,
    })
    return false
  }

  private registerId(attributes: Record<string, string>, element: string): string | undefined {
    const id = elementId(attributes)
    if (id === undefined) return undefined
    if (this.seenIds.has(id)) {
      this.warnings.push({
        code: 'duplicateId',
        elementId: id,
        message: `The id '${id}' of a ${element} is used more than once; the later one is ignored.`,
      })
      return undefined
    }
    this.seenIds.add(id)
    return id
  }

  private collectText(target: TextTarget, depth: number): void {
    this.textTarget = target
    this.textDepth = depth
    this.textBuffer = ''
  }

  private finishText(): void {
    const text = this.textBuffer
    const target = this.textTarget
    this.textTarget = TextTarget.None
    this.textDepth = -1
    this.textBuffer = ''
    switch (target) {
      case TextTarget.Name: {
        const feature = this.state ?? this.transition ?? this.cell
        if (feature && feature.name === undefined) feature.name = text.trim()
        return
      }
      case TextTarget.Description: {
        const feature = this.state ?? this.transition ?? this.cell
        if (feature && feature.description === undefined) feature.description = text.trim()
        return
      }
      case TextTarget.Storey:
        if (this.cell) this.cell.storey = text.trim()
        return
      case TextTarget.Pos:
      case TextTarget.PosList:
        this.onCoordinates(text, target === TextTarget.PosList)
    }
  }

  private onCoordinates(text: string, isList: boolean): void {
    const numbers = parseNumbers(text)
    const points: number[] = []
    const dimension =
      this.posDimension ?? (isList ? inferredDimension(numbers?.length ?? 0) : numbers?.length)
    if (!numbers || !appendPoints(points, numbers, dimension ?? 3)) {
      this.hasInvalidCoordinates = true
      const owner = this.state?.id ?? this.transition?.id
      this.warnings.push({
        code: 'invalidCoordinates',
        elementId: owner,
        message: `Coordinates of '${owner}' are not ${dimension ?? 3}D numbers; its geometry is ignored.`,
      })
      return
    }
    if (this.state) {
      if (this.state.position === undefined) {
        this.state.position = [points[0]!, points[1]!, points[2]!]
      }
    } else if (this.transition) {
      for (const value of points) this.transition.coordinates.push(value)
    }
  }

  private onDuality(reference: string | undefined): void {
    if (reference === undefined) return
    if (this.state) this.state.dualityRef ??= reference
    else if (this.cell) this.cell.dualityRef ??= reference
  }

  private onConnects(reference: string | undefined): void {
    if (reference === undefined) return
    if (this.state) this.state.connectsRefs.push(reference)
    else if (this.transition) this.transition.connectsRefs.push(reference)
  }

  private onInterLayerReference(name: string, reference: string | undefined): void {
    if (reference === undefined || !this.connection) return
    if (name === 'interconnects') this.connection.interConnectsRefs.push(reference)
    else this.connection.connectedLayerRefs.push(reference)
  }
}

/** Parses a whole document held in memory (text or bytes). */
export function parseIndoorGml(
  input: string | Uint8Array | ArrayBuffer,
  options: GmlParseOptions = {},
): ParsedIndoorGml {
  const totalSize = typeof input === 'string' ? input.length : input.byteLength
  const parser = new IndoorGmlParser({ ...options, totalSize: options.totalSize ?? totalSize })
  if (typeof input === 'string') parser.writeText(input)
  else parser.writeBytes(input instanceof Uint8Array ? input : new Uint8Array(input))
  return parser.finish()
}

/** A chunk source: a WHATWG stream (fetch, File.stream()) or any async iterable (Node streams). */
export type GmlChunkSource =
  | ReadableStream<Uint8Array | string>
  | AsyncIterable<Uint8Array | string>

async function* chunksOf(source: GmlChunkSource): AsyncGenerator<Uint8Array | string> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array | string>
    return
  }
  const reader = (source as ReadableStream<Uint8Array | string>).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

/**
 * Parses a document arriving in chunks, so a large file is never held whole. Between chunks
 * the event loop runs, so an AbortSignal is seen promptly.
 */
export async function parseIndoorGmlStream(
  source: GmlChunkSource,
  options: GmlParseOptions = {},
): Promise<ParsedIndoorGml> {
  const parser = new IndoorGmlParser(options)
  for await (const chunk of chunksOf(source)) {
    if (typeof chunk === 'string') parser.writeText(chunk)
    else parser.writeBytes(chunk)
  }
  return parser.finish()
}
