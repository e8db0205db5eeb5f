import { describe, expect, it } from 'vitest'
import { consoleMenuKeys } from '../../../contract/role'
import { leftMenuItemKeys } from './left-menu'

describe('left menu keys', () => {
  it('are exactly the menu keys the server seeds roles with', () => {
    expect([...leftMenuItemKeys].sort()).toEqual([...consoleMenuKeys].sort())
  })
})
