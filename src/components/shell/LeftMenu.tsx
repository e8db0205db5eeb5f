import { useLingui } from '@lingui/react/macro'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import { useHashPath, useHashSearch } from '../../app/hash-location'
import { useServices } from '../../app/services'
import { isAdmin, session } from '../../state/session'
import {
  isLeftMenuItemCurrent,
  type LeftMenuGroup,
  leftMenuItemHref,
  visibleLeftMenuGroups,
} from './left-menu'
import './shell.css'

/** Loads the role's menu keys once per signed-in user; null until known or when unavailable. */
function useRoleMenuKeys(userId: string | undefined): readonly string[] | null {
  const { fetchRoleMenuKeys } = useServices()
  const [keys, setKeys] = useState<readonly string[] | null>(null)
  useEffect(() => {
    if (!userId) return
    let isCurrent = true
    fetchRoleMenuKeys()
      .then((loaded) => isCurrent && setKeys(loaded))
      .catch(() => isCurrent && setKeys(null))
    return () => {
      isCurrent = false
    }
  }, [userId, fetchRoleMenuKeys])
  return keys
}

/**
 * The console's left menu (SPEC §2). Groups fold open and closed; the group holding the current
 * page starts open and the page's link is highlighted and marked `aria-current="page"`. Arrow
 * keys, Home and End move between the menu's controls.
 */
export function LeftMenu() {
  const { t, i18n } = useLingui()
  const [path] = useHashPath()
  const search = useHashSearch()
  const location = { path, search }
  const snapshot = useSnapshot(session)
  const roleMenuKeys = useRoleMenuKeys(snapshot.userData?.id)
  const groups = visibleLeftMenuGroups(isAdmin(snapshot), roleMenuKeys)
  const navRef = useRef<HTMLElement>(null)

  const groupHoldingCurrent = groups.find((group) =>
    group.items.some((item) => isLeftMenuItemCurrent(item, location)),
  )
  const [closedGroupKeys, setClosedGroupKeys] = useState<ReadonlySet<string>>(new Set())

  function toggleGroup(group: LeftMenuGroup) {
    setClosedGroupKeys((closed) => {
      const next = new Set(closed)
      if (next.has(group.key)) next.delete(group.key)
      else next.add(group.key)
      return next
    })
  }

  function moveFocus(event: KeyboardEvent<HTMLElement>) {
    const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End']
    if (!keys.includes(event.key) || !navRef.current) return
    const controls = Array.from(navRef.current.querySelectorAll<HTMLElement>('[data-menu-control]'))
    const index = controls.indexOf(document.activeElement as HTMLElement)
    const last = controls.length - 1
    const nextIndex =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? last
          : event.key === 'ArrowDown'
            ? index >= last
              ? 0
              : index + 1
            : index <= 0
              ? last
              : index - 1
    event.preventDefault()
    controls[nextIndex]?.focus()
  }

  return (
    <nav className="ts-left-menu" aria-label={t`Main menu`} ref={navRef} onKeyDown={moveFocus}>
      <ul className="ts-left-menu__groups">
        {groups.map((group) => {
          // Groups start open (there are few); folding one is remembered while the shell stays mounted.
          const isOpen = !closedGroupKeys.has(group.key)
          const listId = `left-menu-${group.key}`
          return (
            <li key={group.key} className="ts-left-menu__group">
              <button
                type="button"
                className="ts-left-menu__group-button"
                aria-expanded={isOpen}
                aria-controls={listId}
                data-menu-control
                data-current={group === groupHoldingCurrent || undefined}
                onClick={() => toggleGroup(group)}
              >
                <span>{i18n._(group.label)}</span>
                <svg viewBox="0 0 12 12" aria-hidden="true" className="ts-left-menu__chevron">
                  <path d="M3 4.5L6 7.5l3-3" />
                </svg>
              </button>
              <ul id={listId} className="ts-left-menu__items" hidden={!isOpen}>
                {group.items.map((item) => {
                  const isCurrent = isLeftMenuItemCurrent(item, location)
                  return (
                    <li key={item.key}>
                      <Link
                        href={leftMenuItemHref(item)}
                        className={`ts-left-menu__link${isCurrent ? ' is-current' : ''}`}
                        aria-current={isCurrent ? 'page' : undefined}
                        data-menu-control
                        data-menu-key={item.key}
                      >
                        {i18n._(item.label)}
                      </Link>
                    </li>
                  )
                })}
              </ul>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
