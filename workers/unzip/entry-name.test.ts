import { describe, expect, it } from 'vitest'
import { decodeEntryName, toSafeEntryName } from './entry-name'
import { ZipError } from './zip-errors'

function refusal(name: string): string | undefined {
  try {
    toSafeEntryName(name)
    return undefined
  } catch (error) {
    return error instanceof ZipError ? error.code : 'unexpected'
  }
}

describe('toSafeEntryName', () => {
  it.each([
    '../evil.sh',
    'models/../../evil.sh',
    'models/..',
    '/etc/passwd',
    'C:/Windows/evil.dll',
    'c:evil',
    'models\\..\\evil',
    'models\\file.glb',
    'bad\u0000name',
    '',
    './',
  ])('refuses %j', (name) => {
    expect(refusal(name)).toBe('archive.unsafeEntryName')
  })

  it('keeps ordinary names and folders, normalising harmless oddities', () => {
    expect(toSafeEntryName('models/Duck.glb')).toBe('models/Duck.glb')
    expect(toSafeEntryName('tiles/')).toBe('tiles/')
    expect(toSafeEntryName('./a//b/./c.json')).toBe('a/b/c.json')
    expect(toSafeEntryName('模型/建筑..glb')).toBe('模型/建筑..glb')
  })
})

describe('decodeEntryName', () => {
  const gbk = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0x2e, 0x74, 0x78, 0x74]) // 中文.txt in GBK
  const utf8 = new TextEncoder().encode('건물.glb')

  it('reads UTF-8 whether or not the flag says so', () => {
    expect(decodeEntryName(utf8, true, 'gb18030')).toBe('건물.glb')
    expect(decodeEntryName(utf8, false, 'gb18030')).toBe('건물.glb')
  })

  it('falls back to the legacy code page for names that are not UTF-8', () => {
    expect(decodeEntryName(gbk, false, 'gb18030')).toBe('中文.txt')
  })
})
