import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { isGmlError } from '../../../workers/indoor-route/gml-errors'
import { inspectGml, inspectGmlInThread } from './inspect-gml'

const indoorGml = new URL('../../../../shared/data/indoorgml/', import.meta.url)
const fjkHaus = new URL('FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml', indoorGml)
const pnu = new URL('PNU-201_nav-demo_2019-05-24-corrected.gml', indoorGml)
const noDualGraph = new URL(
  'negative/KU-EngBuilding-IndoorGML-2019-01-31_no-dual-graph.gml',
  indoorGml,
)

const limits = { maxSizeBytes: 200 * 1024 * 1024 }

/** A billion-laughs document: ten levels of entities, each ten times the one before. */
const billionLaughs = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE lolz [',
  '<!ENTITY lol "lol">',
  ...Array.from(
    { length: 9 },
    (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level === 0 ? '' : level};`.repeat(10)}">`,
  ),
  ']>',
  '<IndoorFeatures>&lol9;</IndoorFeatures>',
].join('\n')

async function refusalCode(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!isGmlError(error)) throw new Error(`expected a GmlError, got ${String(error)}`)
  return error.code
}

describe('inspectGml', () => {
  it('counts the States and Transitions of a real network', async () => {
    expect(await inspectGml(createReadStream(fjkHaus), limits)).toEqual({
      stateCount: 14,
      transitionCount: 30,
    })
  })

  it('refuses hostile or useless documents with the parser reason', async () => {
    const fjk = await readFile(fjkHaus)
    const cases: Array<[string, string | Buffer, string]> = [
      ['empty', '', 'gml.empty'],
      [
        'not XML',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
        'gml.notXml',
      ],
      ['truncated', fjk.subarray(0, Math.floor(fjk.length / 2)), 'gml.truncated'],
      ['billion laughs', billionLaughs, 'gml.doctypeForbidden'],
    ]
    for (const [label, content, code] of cases) {
      const source = Readable.from([typeof content === 'string' ? Buffer.from(content) : content])
      expect({ label, code: await refusalCode(inspectGml(source, limits)) }).toEqual({
        label,
        code,
      })
    }
    expect(await refusalCode(inspectGml(createReadStream(noDualGraph), limits))).toBe(
      'gml.noNavigationNetwork',
    )
    expect(
      await refusalCode(inspectGml(createReadStream(fjkHaus), { maxSizeBytes: 100_000 })),
    ).toBe('gml.tooLarge')
  })
})

describe('inspectGmlInThread', () => {
  it('gives the same counts as the request thread', async () => {
    const source = createReadStream(pnu, { highWaterMark: 64 * 1024 })
    expect(await inspectGmlInThread(source, limits)).toEqual({
      stateCount: 80,
      transitionCount: 184,
    })
  })

  it('brings the parser refusal back with its code, and takes the next job after it', async () => {
    const refused = inspectGmlInThread(createReadStream(noDualGraph), limits)
    const accepted = inspectGmlInThread(createReadStream(fjkHaus), limits)
    expect(await refusalCode(refused)).toBe('gml.noNavigationNetwork')
    expect(await accepted).toEqual({ stateCount: 14, transitionCount: 30 })
    expect(
      await refusalCode(inspectGmlInThread(Readable.from([Buffer.from(billionLaughs)]), limits)),
    ).toBe('gml.doctypeForbidden')
  })
})
