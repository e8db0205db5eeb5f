import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  currentHashLocation,
  formatHashLocation,
  navigateHash,
  parseHashLocation,
} from './hash-location'

beforeEach(() => {
  window.history.replaceState(null, '', '/?lang=x#/projectManage/bim')
})

describe('hash location', () => {
  it('splits the path from a query inside the hash', () => {
    expect(parseHashLocation('#/login?redirect=%2Fnote')).toEqual({
      path: '/login',
      search: 'redirect=%2Fnote',
    })
    expect(parseHashLocation('')).toEqual({ path: '/', search: '' })
    expect(parseHashLocation('#login')).toEqual({ path: '/login', search: '' })
  })

  it('formats a location back to its full path', () => {
    expect(formatHashLocation({ path: '/login', search: 'a=1' })).toBe('/login?a=1')
    expect(formatHashLocation({ path: '/note', search: '' })).toBe('/note')
  })

  it('navigates inside the hash and keeps the page query', () => {
    const onChange = vi.fn()
    window.addEventListener('hashchange', onChange)
    navigateHash('/login?redirect=%2Fsystem%2Fperson')
    window.removeEventListener('hashchange', onChange)
    expect(window.location.hash).toBe('#/login?redirect=%2Fsystem%2Fperson')
    expect(window.location.search).toBe('?lang=x')
    expect(currentHashLocation()).toEqual({
      path: '/login',
      search: 'redirect=%2Fsystem%2Fperson',
    })
    expect(onChange).toHaveBeenCalledTimes(1)
  })

  it('replaces the history entry when asked', () => {
    const lengthBefore = window.history.length
    navigateHash('/note', { replace: true })
    expect(window.history.length).toBe(lengthBefore)
    navigateHash('/issue')
    expect(window.history.length).toBe(lengthBefore + 1)
  })
})
