import { describe, expect, it } from 'vitest'
import { readRealFile, readTwoStoreyFixture, realFiles, testGml } from './fixtures/test-gml'
import {
  type GmlParseProgress,
  IndoorGmlParser,
  parseIndoorGml,
  parseIndoorGmlStream,
} from './gml-parser'

describe('parseIndoorGml on the real files', () => {
  it('reads FJK-Haus, written in the default namespace without any core: prefix', () => {
    const parsed = parseIndoorGml(readRealFile(realFiles.fjkHaus))
    expect(parsed.rootElement).toBe('IndoorFeatures')
    expect(parsed.states).toHaveLength(14)
    expect(parsed.transitions).toHaveLength(30)
    expect(parsed.layers.map((layer) => layer.id)).toEqual(['IS1'])
    const r10 = parsed.states.find((state) => state.id === 'R10')
    expect(r10).toMatchObject({
      name: '004',
      dualityRef: 'C10',
      connectsRefs: ['T8', 'T9'],
      position: [445541.320800571, 5444901.07268952, -2.02],
      layerId: 'IS1',
    })
    const t0 = parsed.transitions.find((transition) => transition.id === 'T0')
    expect(t0?.connectsRefs).toEqual(['R1', 'R3'])
    expect(t0?.coordinates).toHaveLength(9)
    // CellSpaces are kept for duality only; their names come along, their solids do not.
    expect(parsed.cells.find((cell) => cell.id === 'C10')).toMatchObject({
      name: '004',
      dualityRef: 'R10',
    })
  })

  it('reads the lower-case spaceLayer and posList without srsDimension of KU-EngBuilding', () => {
    const parsed = parseIndoorGml(readRealFile(realFiles.kuEngBuilding))
    expect(parsed.layers.map((layer) => layer.id)).toEqual(['SL0'])
    expect(parsed.states.every((state) => state.layerId === 'SL0')).toBe(true)
    const transition = parsed.transitions.find((item) => item.id === 'SL0_TCell1-Cell2')
    expect(transition?.coordinates).toEqual([
      5.557, 28.743, 0.695, 8.9475, 11.141, 0.695, 9.34, 3.677, 0.695,
    ])
  })

  it('takes State substitution-group elements (PSExt) and InterLayerConnections of KU-Central-Plaza', () => {
    const parsed = parseIndoorGml(readRealFile(realFiles.kuCentralPlaza))
    expect(parsed.layers.map((layer) => layer.id)).toEqual(['base', 'PSInstallation', 'Nonnavi'])
    expect(parsed.states.filter((state) => state.elementName === 'State')).toHaveLength(76)
    expect(
      parsed.states.filter((state) => state.elementName === 'PublicSafetyFirePump'),
    ).toHaveLength(12)
    expect(parsed.transitions).toHaveLength(108)
    expect(parsed.interLayerConnections).toHaveLength(36)
    expect(parsed.interLayerConnections[0]).toMatchObject({
      id: 'I15',
      interConnectsRefs: ['S2', 'EXTINGUISHER4'],
      connectedLayerRefs: ['base', 'PSInstallation'],
    })
  })

  it('keeps gml:description text, where PNU writes each storey', () => {
    const parsed = parseIndoorGml(readRealFile(realFiles.pnu))
    expect(parsed.states).toHaveLength(80)
    expect(parsed.transitions).toHaveLength(184)
    expect(parsed.states.find((state) => state.id === 'S26')?.description).toBe(
      'storey="1":indoor="room":',
    )
  })
})

describe('parseIndoorGml on written-to-order documents', () => {
  const network = {
    states: [
      { id: 'A', position: [0, 0, 0] as [number, number, number], connects: ['T1'] },
      { id: 'B', position: [3, 4, 0] as [number, number, number], connects: ['T1'] },
    ],
    transitions: [
      {
        id: 'T1',
        connects: ['A', 'B'],
        points: [
          [0, 0, 0],
          [3, 4, 0],
        ] as [number, number, number][],
      },
    ],
  }

  it('reads the same network whatever the namespace prefix', () => {
    const withCore = parseIndoorGml(testGml({ ...network, prefix: 'core' }))
    const withDefault = parseIndoorGml(testGml({ ...network, prefix: '' }))
    const withNs5 = parseIndoorGml(testGml({ ...network, prefix: 'ns5' }))
    for (const parsed of [withDefault, withNs5]) {
      expect(parsed.states).toEqual(withCore.states)
      expect(parsed.transitions).toEqual(withCore.transitions)
    }
    expect(withCore.states).toHaveLength(2)
  })

  it('reads gml:pos lists, posList with srsDimension 2, and 2D points as z = 0', () => {
    const text = `<IndoorFeatures xmlns:gml="g" xmlns:xlink="x">
      <stateMember><State gml:id="A"><geometry><gml:Point srsDimension="2"><gml:pos>1 2</gml:pos></gml:Point></geometry></State></stateMember>
      <transitionMember><Transition gml:id="T1"><geometry><gml:LineString>
        <gml:pos>0 0 1</gml:pos><gml:pos>1 1 1</gml:pos></gml:LineString></geometry></Transition></transitionMember>
      <transitionMember><Transition gml:id="T2"><geometry><gml:LineString>
        <gml:posList srsDimension="2">0 0 5 5 9 9</gml:posList></gml:LineString></geometry></Transition></transitionMember>
    </IndoorFeatures>`
    const parsed = parseIndoorGml(text)
    expect(parsed.states[0]?.position).toEqual([1, 2, 0])
    expect(parsed.transitions[0]?.coordinates).toEqual([0, 0, 1, 1, 1, 1])
    expect(parsed.transitions[1]?.coordinates).toEqual([0, 0, 0, 5, 5, 0, 9, 9, 0])
  })

  it('takes the State position from its own Point, not from an inline CellSpace in duality', () => {
    const text = `<IndoorFeatures xmlns:gml="g"><stateMember><State gml:id="A">
      <duality><CellSpace gml:id="C"><gml:Solid><gml:pos>9 9 9</gml:pos></gml:Solid></CellSpace></duality>
      <geometry><gml:Point><gml:pos>1 2 3</gml:pos></gml:Point></geometry></State></stateMember></IndoorFeatures>`
    expect(parseIndoorGml(text).states[0]?.position).toEqual([1, 2, 3])
  })

  it('drops unreadable coordinates with a warning instead of inventing numbers', () => {
    const text = `<IndoorFeatures xmlns:gml="g"><transitionMember><Transition gml:id="T1"><geometry>
      <gml:LineString><gml:posList>0 0 zero 1 1 1</gml:posList></gml:LineString></geometry></Transition></transitionMember></IndoorFeatures>`
    const parsed = parseIndoorGml(text)
    expect(parsed.transitions[0]?.coordinates).toEqual([])
    expect(parsed.warnings).toContainEqual(
      expect.objectContaining({ code: 'invalidCoordinates', elementId: 'T1' }),
    )
  })

  it('reports a duplicate id and keeps the first element', () => {
    const text = `<IndoorFeatures xmlns:gml="g"><stateMember><State gml:id="A"><gml:name>first</gml:name></State></stateMember>
      <stateMember><State gml:id="A"><gml:name>second</gml:name></State></stateMember></IndoorFeatures>`
    const parsed = parseIndoorGml(text)
    expect(parsed.states.map((state) => state.name)).toEqual(['first'])
    expect(parsed.warnings[0]).toMatchObject({ code: 'duplicateId', elementId: 'A' })
  })
})

describe('streaming', () => {
  const fixture = readTwoStoreyFixture()
  const whole = parseIndoorGml(fixture)

  it('gives the same result for any chunking of the bytes, even splitting characters', () => {
    const bytes = new TextEncoder().encode(fixture.replaceAll('>storage<', '>Lagerraum für Möbel<'))
    const reference = parseIndoorGml(bytes)
    for (const chunkSize of [1, 7, 4096]) {
      const parser = new IndoorGmlParser()
      for (let start = 0; start < bytes.length; start += chunkSize) {
        parser.writeBytes(bytes.subarray(start, start + chunkSize))
      }
      const parsed = parser.finish()
      expect(parsed.states).toEqual(reference.states)
      expect(parsed.transitions).toEqual(reference.transitions)
    }
    expect(reference.states.find((state) => state.id === 'X201')?.name).toBe('Lagerraum für Möbel')
  })

  it('parses a WHATWG ReadableStream and reports bytes read against the total', async () => {
    const bytes = new TextEncoder().encode(fixture)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let start = 0; start < bytes.length; start += 1000) {
          controller.enqueue(bytes.subarray(start, start + 1000))
        }
        controller.close()
      },
    })
    const progress: GmlParseProgress[] = []
    const parsed = await parseIndoorGmlStream(stream, {
      totalSize: bytes.length,
      onProgress: (step) => progress.push(step),
    })
    expect(parsed.states).toEqual(whole.states)
    expect(progress.length).toBeGreaterThan(5)
    expect(progress.map((step) => step.read)).toEqual(
      [...progress.map((step) => step.read)].sort((a, b) => a - b),
    )
    expect(progress.at(-1)).toEqual({ read: bytes.length, total: bytes.length, unit: 'bytes' })
  })

  it('parses an async iterable of text chunks (a Node stream with an encoding)', async () => {
    async function* pieces() {
      for (let start = 0; start < fixture.length; start += 333)
        yield fixture.slice(start, start + 333)
    }
    const parsed = await parseIndoorGmlStream(pieces())
    expect(parsed.transitions).toEqual(whole.transitions)
  })

  it('decodes UTF-16 input announced by its byte-order mark', () => {
    const units = new Uint16Array(fixture.length + 1)
    units[0] = 0xfeff
    for (let index = 0; index < fixture.length; index++)
      units[index + 1] = fixture.charCodeAt(index)
    const parsed = parseIndoorGml(new Uint8Array(units.buffer))
    expect(parsed.states).toEqual(whole.states)
  })
})
