import { describe, expect, it } from 'vitest'
import { testGml } from './fixtures/test-gml'
import { type GmlErrorCode, isGmlError } from './gml-errors'
import { IndoorGmlParser, parseIndoorGml, parseIndoorGmlStream } from './gml-parser'
import { loadIndoorGml } from './load-indoor-gml'
import { findRoute, indexStates } from './route'
import { ShortestPathSearch } from './shortest-path'

function codeOf(run: () => unknown): GmlErrorCode | 'no error' | 'not a GmlError' {
  try {
    run()
    return 'no error'
  } catch (error) {
    return isGmlError(error) ? error.code : 'not a GmlError'
  }
}

const smallNetwork = testGml({
  states: [
    { id: 'A', position: [0, 0, 0] },
    { id: 'B', position: [1, 0, 0] },
  ],
  transitions: [
    {
      id: 'T1',
      connects: ['A', 'B'],
      points: [
        [0, 0, 0],
        [1, 0, 0],
      ],
    },
  ],
})

describe('input that is not an IndoorGML network', () => {
  it('refuses an empty or blank file as empty', () => {
    expect(codeOf(() => parseIndoorGml(''))).toBe('gml.empty')
    expect(codeOf(() => parseIndoorGml(' \n\t '))).toBe('gml.empty')
    expect(codeOf(() => parseIndoorGml(new Uint8Array(0)))).toBe('gml.empty')
  })

  it('refuses JSON, plain text and binary at the first character', () => {
    expect(codeOf(() => parseIndoorGml('{"type":"FeatureCollection"}'))).toBe('gml.notXml')
    expect(codeOf(() => parseIndoorGml('hello'))).toBe('gml.notXml')
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
    expect(codeOf(() => parseIndoorGml(png))).toBe('gml.notXml')
  })

  it('stops reading a large non-XML stream after its first chunk', async () => {
    let chunksPulled = 0
    async function* garbage() {
      for (let index = 0; index < 1000; index++) {
        chunksPulled++
        yield new Uint8Array(64 * 1024).fill(0x41)
      }
    }
    await expect(parseIndoorGmlStream(garbage())).rejects.toMatchObject({ code: 'gml.notXml' })
    expect(chunksPulled).toBe(1)
  })

  it('calls a document cut short truncated, naming the open element', () => {
    const cut = smallNetwork.slice(0, Math.floor(smallNetwork.length * 0.6))
    let message = ''
    try {
      parseIndoorGml(cut)
    } catch (error) {
      expect(isGmlError(error) && error.code).toBe('gml.truncated')
      message = (error as Error).message
    }
    expect(message).toMatch(/ends early: <\w+>/)
  })

  it('calls mismatched tags malformed, with the line and column', () => {
    let message = ''
    try {
      parseIndoorGml('<IndoorFeatures>\n<State></Transition></IndoorFeatures>')
    } catch (error) {
      expect(isGmlError(error) && error.code).toBe('gml.malformedXml')
      message = (error as Error).message
    }
    expect(message).toMatch(/2:\d+/)
  })

  it('refuses well-formed XML without States: "GML has no navigation network"', () => {
    expect(codeOf(() => loadIndoorGml('<CityModel><cityObjectMember/></CityModel>'))).toBe(
      'gml.noNavigationNetwork',
    )
  })

  it('refuses States that no Transition connects, since nothing can be routed', () => {
    const statesOnly = testGml({
      states: [{ id: 'A', position: [0, 0, 0] }],
      transitions: [],
    })
    expect(codeOf(() => loadIndoorGml(statesOnly))).toBe('gml.noNavigationNetwork')
  })
})

describe('hostile XML', () => {
  const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<IndoorFeatures><stateMember><State gml:id="A"><gml:name>&lol9;</gml:name></State></stateMember></IndoorFeatures>`

  it('refuses the billion laughs at its DOCTYPE, before any entity could be expanded', () => {
    const progress: number[] = []
    const parser = new IndoorGmlParser({ onProgress: (step) => progress.push(step.read) })
    expect(() => parser.writeText(billionLaughs)).toThrow(
      expect.objectContaining({ code: 'gml.doctypeForbidden' }),
    )
    // The refusal happened inside the first (and only) chunk, not after reading an expansion.
    expect(progress).toEqual([])
  })

  it('refuses an external entity (XXE) the same way', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><IndoorFeatures>&x;</IndoorFeatures>`
    expect(codeOf(() => parseIndoorGml(xxe))).toBe('gml.doctypeForbidden')
  })

  it('does not expand an undeclared entity reference', () => {
    expect(codeOf(() => parseIndoorGml('<IndoorFeatures>&lol9;</IndoorFeatures>'))).toBe(
      'gml.malformedXml',
    )
  })

  it('refuses nesting deeper than the limit without building the whole tree', () => {
    const depth = 100_000
    const nested = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`
    expect(codeOf(() => parseIndoorGml(nested))).toBe('gml.tooDeep')
    expect(
      codeOf(() => parseIndoorGml(`${'<a>'.repeat(40)}${'</a>'.repeat(40)}`, { maxDepth: 30 })),
    ).toBe('gml.tooDeep')
  })

  it('refuses input over the size limit, known up front or counted while streaming', async () => {
    expect(codeOf(() => parseIndoorGml(smallNetwork, { maxSizeBytes: 100 }))).toBe('gml.tooLarge')
    let chunksPulled = 0
    async function* endless() {
      yield '<IndoorFeatures>'
      for (;;) {
        chunksPulled++
        yield '<cellSpaceMember/>'.repeat(1000)
      }
    }
    await expect(
      parseIndoorGmlStream(endless(), { maxSizeBytes: 1_000_000 }),
    ).rejects.toMatchObject({ code: 'gml.tooLarge' })
    expect(chunksPulled).toBeLessThan(100)
  })

  it('stops when its AbortSignal fires', async () => {
    const controller = new AbortController()
    async function* slow() {
      yield '<IndoorFeatures>'
      controller.abort()
      yield '</IndoorFeatures>'
    }
    await expect(parseIndoorGmlStream(slow(), { signal: controller.signal })).rejects.toMatchObject(
      { code: 'gml.aborted' },
    )
  })
})

describe('broken references', () => {
  it('leaves out a Transition pointing at a missing State, reports it, and routes the rest', () => {
    const text = testGml({
      states: [
        { id: 'A', position: [0, 0, 0], connects: ['T1'] },
        { id: 'B', position: [1, 0, 0], connects: ['T1', 'T2'] },
      ],
      transitions: [
        {
          id: 'T1',
          connects: ['A', 'B'],
          points: [
            [0, 0, 0],
            [1, 0, 0],
          ],
        },
        { id: 'T2', connects: ['B', 'Ghost'] },
      ],
    })
    const built = loadIndoorGml(text)
    expect(built.graph.edgeFrom).toHaveLength(1)
    expect(built.warnings.map((warning) => [warning.code, warning.elementId])).toEqual([
      ['danglingReference', 'T2'],
      ['transitionUnresolved', 'T2'],
    ])
    const route = findRoute(
      built.graph,
      indexStates(built.graph),
      new ShortestPathSearch(built.graph),
      'A',
      'B',
    )
    expect(route.path).toEqual(['A', 'B'])
  })

  it('answers an unknown State id with a clear gml.unknownState error', () => {
    const built = loadIndoorGml(smallNetwork)
    const query = () =>
      findRoute(
        built.graph,
        indexStates(built.graph),
        new ShortestPathSearch(built.graph),
        'A',
        'Z9',
      )
    expect(codeOf(query)).toBe('gml.unknownState')
    expect(query).toThrow(/Unknown end State 'Z9'.*2 States/)
  })
})
