import type { MessageDescriptor } from '@lingui/core'
import type { consoleMenuKeys } from '../../../contract/role'
import { msg } from '@lingui/core/macro'
import type { HashLocation } from '../../app/hash-location'
import { matchPattern } from '../../app/route-table'

/** One link of the left menu. */
export interface LeftMenuItem {
  /**
   * Stable key the role-menu lookup (`GET /web/roleMenu/selectRoleMenu_Vue`) answers with:
   * `<group>.<item>`, e.g. `system.users`. Typed by the contract's list, which the server's
   * role seed uses too, so the two cannot drift apart.
   */
  key: (typeof consoleMenuKeys)[number]
  label: MessageDescriptor
  /** Route path the link opens. */
  path: string
  /** Query the link adds; the item is current only when the location carries it too. */
  query?: Readonly<Record<string, string>>
  /** The item counts as current on its path when the location has none of its query keys. */
  isDefaultForPath?: boolean
  isAdminOnly?: boolean
}

/** A titled group of links. */
export interface LeftMenuGroup {
  key: string
  label: MessageDescriptor
  items: readonly LeftMenuItem[]
}

/** SPEC §2 "Left menu", in its order, plus the admin pages under System settings. */
export const leftMenuGroups: readonly LeftMenuGroup[] = [
  {
    key: 'projectManage',
    label: msg`Project management`,
    items: [
      {
        key: 'projectManage.city',
        label: msg`City`,
        path: '/projectManage/bim',
        query: { kind: 'city' },
        isDefaultForPath: true,
      },
      {
        key: 'projectManage.space',
        label: msg`Space`,
        path: '/projectManage/bim',
        query: { kind: 'space' },
      },
      { key: 'projectManage.cases', label: msg`Project cases`, path: '/projectCase' },
    ],
  },
  {
    key: 'templateManage',
    label: msg`Template manage`,
    items: [{ key: 'templateManage.list', label: msg`Template list`, path: '/templateManage/bim' }],
  },
  {
    key: 'modelConfig',
    label: msg`Model config`,
    items: [
      { key: 'modelConfig.merge', label: msg`Structure merge`, path: '/modelConfig/merge' },
      { key: 'modelConfig.add', label: msg`Structure add`, path: '/modelConfig/add' },
      {
        key: 'modelConfig.conversion',
        label: msg`Format conversion`,
        path: '/modelConfig/conversion',
      },
      { key: 'modelConfig.cases', label: msg`Case list`, path: '/modelConfig' },
    ],
  },
  {
    key: 'system',
    label: msg`System settings`,
    items: [
      { key: 'system.person', label: msg`Personal info`, path: '/system/person' },
      { key: 'system.security', label: msg`Security info`, path: '/system/security' },
      {
        key: 'system.users',
        label: msg`User management`,
        path: '/system/users',
        isAdminOnly: true,
      },
      {
        key: 'system.roles',
        label: msg`Role management`,
        path: '/system/roles',
        isAdminOnly: true,
      },
      {
        key: 'system.issue',
        label: msg`Publish an announcement`,
        path: '/issue',
        isAdminOnly: true,
      },
    ],
  },
  {
    key: 'orderManage',
    label: msg`Order manage`,
    items: [
      { key: 'orderManage.personal', label: msg`Personal orders`, path: '/project/more/orders' },
      { key: 'orderManage.myOrder', label: msg`My order`, path: '/project/more/ordetails' },
      { key: 'orderManage.balance', label: msg`My balance`, path: '/project/more/balance' },
    ],
  },
]

/** Every item key, e.g. for the server's role-menu seed. */
export const leftMenuItemKeys: readonly string[] = leftMenuGroups.flatMap((group) =>
  group.items.map((item) => item.key),
)

/** The href path of an item, query included. */
export function leftMenuItemHref(item: LeftMenuItem): string {
  if (!item.query) return item.path
  return `${item.path}?${new URLSearchParams(item.query).toString()}`
}

/** Whether the location is this item's page, so the menu can highlight it. */
export function isLeftMenuItemCurrent(item: LeftMenuItem, location: HashLocation): boolean {
  if (!matchPattern(item.path, location.path)) return false
  if (!item.query) return true
  const params = new URLSearchParams(location.search)
  const queryKeys = Object.keys(item.query)
  if (item.isDefaultForPath && queryKeys.every((key) => !params.has(key))) return true
  return queryKeys.every((key) => params.get(key) === item.query?.[key])
}

/**
 * Which items to show. Admin-only items need the admin role. When the server's role-menu keys
 * are known and name at least one of our items, they decide too; a list naming none of them
 * (an older or differently keyed server) is ignored rather than emptying the menu.
 */
export function visibleLeftMenuGroups(
  isAdmin: boolean,
  roleMenuKeys: readonly string[] | null,
): LeftMenuGroup[] {
  const allowed = new Set(roleMenuKeys ?? [])
  const isRoleMenuUsable = leftMenuItemKeys.some((key) => allowed.has(key))
  return leftMenuGroups
    .map((group) => ({
      ...group,
      items: group.items.filter(
        (item) => (!item.isAdminOnly || isAdmin) && (!isRoleMenuUsable || allowed.has(item.key)),
      ),
    }))
    .filter((group) => group.items.length > 0)
}
