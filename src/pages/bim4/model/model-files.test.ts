import { describe, expect, it } from 'vitest'
import { checkFloorFiles, checkModelFile, checkShellFiles } from './model-files'

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name)

describe('model library file checks (SPEC §5, §9)', () => {
  it('takes one model or exactly one .json as the shell', () => {
    expect(checkShellFiles([file('shell.json')]).isValid).toBe(true)
    expect(checkShellFiles([file('SHELL.JSON')]).isValid).toBe(true)
    expect(checkShellFiles([]).isValid).toBe(false)
    expect(checkShellFiles([file('a.json'), file('b.json')]).isValid).toBe(false)
    expect(checkShellFiles([file('house.sbm')])).toMatchObject({
      isValid: true,
      needsConversion: false,
    })
    expect(checkShellFiles([file('house.fbx')])).toMatchObject({
      isValid: true,
      needsConversion: true,
    })
    expect(checkShellFiles([file('empty.json', 0)]).isValid).toBe(false)
  })

  it('takes model files (converted unless SBM) or a single .zip, never both', () => {
    expect(checkFloorFiles([file('1F.sbm'), file('2F.sbm')]).isValid).toBe(true)
    expect(checkFloorFiles([file('floors.zip')]).isValid).toBe(true)
    expect(checkFloorFiles([file('floors.zip'), file('1F.sbm')]).isValid).toBe(false)
    expect(checkFloorFiles([file('a.zip'), file('b.zip')]).isValid).toBe(false)
    expect(checkFloorFiles([file('Duck.glb'), file('box.fbx')])).toMatchObject({
      isValid: true,
      needsConversion: true,
    })
    expect(
      checkFloorFiles([file('Duck.gltf'), file('Duck0.bin'), file('DuckCM.png')]).isValid,
    ).toBe(true)
    expect(checkFloorFiles([file('Duck0.bin'), file('DuckCM.png')]).isValid).toBe(false)
    expect(checkFloorFiles([file('notes.txt')]).isValid).toBe(false)
    expect(checkFloorFiles([]).isValid).toBe(false)
  })

  it('replaces a model with one .sbm', () => {
    expect(checkModelFile([file('new.sbm')]).isValid).toBe(true)
    expect(checkModelFile([file('new.glb')]).isValid).toBe(false)
    expect(checkModelFile([file('a.sbm'), file('b.sbm')]).isValid).toBe(false)
  })
})
