import { readFile } from 'node:fs/promises'
import { Matrix4, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_FBX_AXIS_SETTINGS,
  fbxToGltfMatrix,
  isAsciiFbx,
  isBinaryFbx,
  readFbxAxisSettings,
} from './fbx-settings'

const fbx = (name: string) =>
  readFile(new URL(`../../../../shared/data/fbx/${name}`, import.meta.url)).then(
    (bytes) => new Uint8Array(bytes),
  )

describe('readFbxAxisSettings', () => {
  it('reads a binary FBX 7.4 (metres, Y up)', async () => {
    const bytes = await fbx('box.fbx')
    expect(isBinaryFbx(bytes)).toBe(true)
    expect(readFbxAxisSettings(bytes)).toEqual({
      ...DEFAULT_FBX_AXIS_SETTINGS,
      unitScaleFactor: 100,
    })
  })

  it('reads a binary FBX 7.5 with compressed arrays (centimetres)', async () => {
    expect(readFbxAxisSettings(await fbx('boxWithCompressedCTypeArray.FBX')).unitScaleFactor).toBe(
      1,
    )
  })

  it('reads an ASCII FBX from 3ds Max (Z up, −Y front)', async () => {
    const bytes = await fbx('ascii/box_ascii_embedded_texture.FBX')
    expect(isAsciiFbx(bytes)).toBe(true)
    expect(readFbxAxisSettings(bytes)).toEqual({
      unitScaleFactor: 100,
      upAxis: 2,
      upAxisSign: 1,
      frontAxis: 1,
      frontAxisSign: -1,
      coordAxis: 0,
      coordAxisSign: 1,
    })
  })

  it('keeps the defaults when a file states nothing', () => {
    const bytes = new TextEncoder().encode('; FBX 7.4.0 project file\nGlobalSettings: {}\n')
    expect(readFbxAxisSettings(bytes)).toEqual(DEFAULT_FBX_AXIS_SETTINGS)
  })
})

describe('fbxToGltfMatrix', () => {
  const apply = (matrix: number[], x: number, y: number, z: number) =>
    new Vector3(x, y, z).applyMatrix4(new Matrix4().fromArray(matrix)).toArray()

  it('only scales centimetres to metres for a Y-up file', () => {
    expect(apply(fbxToGltfMatrix(DEFAULT_FBX_AXIS_SETTINGS), 100, 200, 300)).toEqual([1, 2, 3])
  })

  it('stands a Z-up file upright and keeps it right-handed', () => {
    const matrix = fbxToGltfMatrix({
      unitScaleFactor: 100,
      upAxis: 2,
      upAxisSign: 1,
      frontAxis: 1,
      frontAxisSign: -1,
      coordAxis: 0,
      coordAxisSign: 1,
    })
    expect(apply(matrix, 0, 0, 1)).toEqual([0, 1, 0]) // up stays up
    expect(apply(matrix, 0, -1, 0).map((value) => value + 0)).toEqual([0, 0, 1]) // front faces +Z
    expect(new Matrix4().fromArray(matrix).determinant()).toBeCloseTo(1, 10)
  })

  it('falls back to no rotation for axes that are not a permutation', () => {
    const matrix = fbxToGltfMatrix({ ...DEFAULT_FBX_AXIS_SETTINGS, upAxis: 0 })
    expect(apply(matrix, 100, 0, 0)).toEqual([1, 0, 0])
  })
})
