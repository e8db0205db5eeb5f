import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AppError } from './app-error'
import { decodeFormPairs, nestFormPairs, parseFieldPath, parseFormBody } from './form-body'

describe('parseFormBody', () => {
  it('reads flat fields, decoding + and percent escapes', () => {
    expect(parseFormBody('name=Ada+Lovelace&city=%EC%84%9C%EC%9A%B8&empty=&flag')).toEqual({
      name: 'Ada Lovelace',
      city: '서울',
      empty: '',
      flag: '',
    })
  })

  it('nests dotted and bracketed keys', () => {
    expect(parseFormBody('label.labelKey=x&a[b]=1&a[c][d]=2&p.q[r].s=3')).toEqual({
      label: { labelKey: 'x' },
      a: { b: '1', c: { d: '2' } },
      p: { q: { r: { s: '3' } } },
    })
  })

  it('turns repeated keys and [] keys into lists', () => {
    expect(parseFormBody('ids=1&ids=2&ids=3&tags[]=a&one[]=only')).toEqual({
      ids: ['1', '2', '3'],
      tags: ['a'],
      one: ['only'],
    })
  })

  it('turns indexed keys into a list of objects', () => {
    expect(parseFormBody('items[0][name]=a&items[1][name]=b&items[1][size]=2')).toEqual({
      items: [{ name: 'a' }, { name: 'b', size: '2' }],
    })
  })

  it('keeps gappy indexes as an object so validation can refuse them', () => {
    expect(parseFormBody('items[0]=a&items[5]=b')).toEqual({ items: { 0: 'a', 5: 'b' } })
  })

  it('keeps keys named like Object methods as plain keys', () => {
    const parsed = parseFormBody('toString=1&hasOwnProperty=2&valueOf.x=3')
    expect(parsed).toEqual({ toString: '1', hasOwnProperty: '2', valueOf: { x: '3' } })
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
  })

  it.each([
    '__proto__[polluted]=yes',
    'a[__proto__][polluted]=yes',
    'a.constructor.prototype.polluted=yes',
    'constructor[prototype][polluted]=yes',
    '__proto__=x',
  ])('refuses the prototype-reaching key in %s', (body) => {
    expect(() => parseFormBody(body)).toThrow(AppError)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    ['a=1&a[b]=2', 'a value and an object'],
    ['a[b]=1&a=2', 'an object and a value'],
    ['a[]=1&a[b]=2', 'a list and an object'],
  ])('refuses conflicting keys: %s (%s)', (body) => {
    expect(() => parseFormBody(body)).toThrow(/conflicts/)
  })

  it.each(['a[b=1', '[a]=1', 'a..b=1', 'a.=1'])('refuses the malformed name %s', (body) => {
    expect(() => parseFormBody(body)).toThrow(/Malformed form field name/)
  })

  it('refuses bad percent-encoding with a validation error', () => {
    try {
      parseFormBody('name=%E0%A4%A')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).kind).toBe('validation')
    }
  })

  it('enforces the pair and depth limits', () => {
    const limits = { maxPairs: 3, maxDepth: 2 }
    expect(() => parseFormBody('a=1&b=2&c=3&d=4', limits)).toThrow(/Too many form fields/)
    expect(() => parseFormBody('a.b.c=1', limits)).toThrow(/deeper than 2/)
    expect(parseFormBody('a.b=1', limits)).toEqual({ a: { b: '1' } })
  })
})

describe('parseFieldPath', () => {
  it('splits names and marks appends', () => {
    expect(parseFieldPath('a.b[c][]')).toEqual(['a', 'b', 'c', ''])
    expect(parseFieldPath('a[b.c]')).toEqual(['a', 'b.c'])
  })
})

describe('nestFormPairs', () => {
  it('nests pairs from a multipart form the same way', () => {
    expect(
      nestFormPairs([
        ['label.labelKey', 'x'],
        ['ids[]', '1'],
        ['ids[]', '2'],
      ]),
    ).toEqual({ label: { labelKey: 'x' }, ids: ['1', '2'] })
  })
})

describe('form parsing on arbitrary input', () => {
  it('either parses to plain data or refuses with a validation error, and never pollutes', () => {
    const keyPart = fc.constantFrom(
      'a',
      'b',
      '[',
      ']',
      '.',
      '[]',
      '0',
      '1',
      '__proto__',
      'x',
      '%',
      '=',
    )
    const key = fc.array(keyPart, { maxLength: 6 }).map((parts) => parts.join(''))
    const body = fc
      .array(fc.tuple(key, fc.string({ maxLength: 5 })), { maxLength: 8 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'))
    fc.assert(
      fc.property(fc.oneof(body, fc.string({ maxLength: 40 })), (text) => {
        try {
          const parsed = parseFormBody(text)
          expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed)
        } catch (error) {
          expect(error).toBeInstanceOf(AppError)
          expect((error as AppError).kind).toBe('validation')
        }
        expect(({} as Record<string, unknown>).a).toBeUndefined()
      }),
      { numRuns: 500 },
    )
  })

  it('keeps every value of a flat body', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 20 })),
        (fields) => {
          const text = new URLSearchParams(fields).toString()
          expect(parseFormBody(text)).toEqual({ ...fields })
          expect(decodeFormPairs(text)).toHaveLength(Object.keys(fields).length)
        },
      ),
    )
  })
})
