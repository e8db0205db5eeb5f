import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { Router } from 'wouter'
import type { User } from '../../api/types'
import { useHashPath } from '../../app/hash-location'
import { type AppServices, defaultServices, ServicesProvider } from '../../app/services'
import { reloadSessionFromStorage, session, signIn } from '../../state/session'
import { LeftMenu } from './LeftMenu'
import {
  isLeftMenuItemCurrent,
  leftMenuGroups,
  leftMenuItemKeys,
  visibleLeftMenuGroups,
} from './left-menu'

const admin: User = {
  id: 'a1',
  name: 'root',
  nickname: null,
  sex: null,
  tel: null,
  email: null,
  birthday: null,
  job_title: null,
  company: null,
  avatar: null,
  role: 'admin',
  created_at: '',
  updated_at: '',
}

const labelsOf = (groups: ReturnType<typeof visibleLeftMenuGroups>) =>
  groups.map((group) => group.key)

describe('left menu model', () => {
  it('holds every group of SPEC §2 in order', () => {
    expect(leftMenuGroups.map((group) => group.key)).toEqual([
      'projectManage',
      'templateManage',
      'modelConfig',
      'system',
      'orderManage',
    ])
    expect(new Set(leftMenuItemKeys).size).toBe(leftMenuItemKeys.length)
  })

  it('shows admin items to admins only', () => {
    const editorItems = visibleLeftMenuGroups(false, null).flatMap((group) => group.items)
    const adminItems = visibleLeftMenuGroups(true, null).flatMap((group) => group.items)
    expect(editorItems.some((item) => item.isAdminOnly)).toBe(false)
    expect(adminItems.map((item) => item.key)).toContain('system.users')
  })

  it('follows the role-menu keys when they name our items, and ignores them otherwise', () => {
    const limited = visibleLeftMenuGroups(false, ['projectManage.city', 'system.person'])
    expect(labelsOf(limited)).toEqual(['projectManage', 'system'])
    expect(limited.flatMap((group) => group.items.map((item) => item.key))).toEqual([
      'projectManage.city',
      'system.person',
    ])
    expect(labelsOf(visibleLeftMenuGroups(false, ['menu-17']))).toEqual(
      labelsOf(visibleLeftMenuGroups(false, null)),
    )
  })

  it('marks the item of the current location, query included', () => {
    const [city, space] = leftMenuGroups[0]!.items
    expect(isLeftMenuItemCurrent(city!, { path: '/projectManage/bim', search: '' })).toBe(true)
    expect(isLeftMenuItemCurrent(space!, { path: '/projectManage/bim', search: '' })).toBe(false)
    expect(
      isLeftMenuItemCurrent(space!, { path: '/projectManage/bim', search: 'kind=space' }),
    ).toBe(true)
    expect(isLeftMenuItemCurrent(city!, { path: '/projectManage/bim', search: 'kind=space' })).toBe(
      false,
    )
  })
})

describe('LeftMenu', () => {
  beforeEach(() => {
    localStorage.clear()
    reloadSessionFromStorage()
    session.isOverTime = false
    window.history.replaceState(null, '', '/#/system/security')
  })

  function renderMenu(services: AppServices = defaultServices) {
    return render(
      <I18nProvider i18n={i18n}>
        <ServicesProvider services={{ ...services, fetchRoleMenuKeys: async () => [] }}>
          <Router hook={useHashPath}>
            <LeftMenu />
          </Router>
        </ServicesProvider>
      </I18nProvider>,
    )
  }

  it('highlights the current page and moves with the keyboard', async () => {
    signIn('t', admin)
    renderMenu()
    const current = screen.getByRole('link', { name: 'Security info' })
    expect(current.getAttribute('aria-current')).toBe('page')
    expect(screen.getByRole('link', { name: 'User management' })).toBeTruthy()

    const user = userEvent.setup()
    current.focus()
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement?.textContent).toBe('User management')
    await user.keyboard('{Enter}')
    await waitFor(() => expect(window.location.hash).toBe('#/system/users'))
    expect(screen.getByRole('link', { name: 'User management' }).getAttribute('aria-current')).toBe(
      'page',
    )

    await user.keyboard('{Home}')
    expect(document.activeElement?.textContent).toBe('Project management')
  })

  it('folds a group with its button', async () => {
    signIn('t', admin)
    renderMenu()
    const user = userEvent.setup()
    const groupButton = screen.getByRole('button', { name: 'Order manage' })
    expect(groupButton.getAttribute('aria-expanded')).toBe('true')
    await user.click(groupButton)
    expect(groupButton.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('link', { name: 'My balance' })).toBeNull()
  })
})
