import { describe, expect, it } from 'vitest'
import { checkConversionFiles } from './conversion-files'

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name)

describe('checkConversionFiles (SPEC §5 "Conversion accepts one DAE or FBX file")', () => {
  it('takes one DAE or FBX', () => {
    expect(checkConversionFiles('daeOrFbx', [file('duck.dae')]).isValid).toBe(true)
    expect(checkConversionFiles('daeOrFbx', [file('BOX.FBX')]).isValid).toBe(true)
    expect(checkConversionFiles('daeOrFbx', [file('a.dae'), file('b.fbx')]).isValid).toBe(false)
    expect(checkConversionFiles('daeOrFbx', [file('duck.zae')]).isValid).toBe(false)
    expect(checkConversionFiles('daeOrFbx', [file('duck.dae', 0)]).isValid).toBe(false)
  })

  it('takes one .glb alone, or one .gltf with its files', () => {
    expect(checkConversionFiles('gltf', [file('Duck.glb')]).isValid).toBe(true)
    expect(
      checkConversionFiles('gltf', [file('Duck.gltf'), file('Duck0.bin'), file('DuckCM.png')])
        .isValid,
    ).toBe(true)
    expect(checkConversionFiles('gltf', [file('Duck.glb'), file('x.png')]).isValid).toBe(false)
    expect(checkConversionFiles('gltf', [file('a.gltf'), file('b.gltf')]).isValid).toBe(false)
    expect(checkConversionFiles('gltf', [file('Duck0.bin')]).isValid).toBe(false)
  })
})
