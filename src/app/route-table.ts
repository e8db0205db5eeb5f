import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/**
 * Every route of SPEC §2 as data: path pattern, title, how the guard treats it and which frame
 * it renders in. Data only (no components), so the guard, the API client's timeout handling and
 * the title logic can use it without importing any page.
 */

/** The product name of every title (decisions.md "Identity"). */
export const productName = 'Twinscape'

/** The frame a page renders in. */
export type RouteFrame =
  /** Sign-in, sign-up and forgot-password: a centred card over the background. */
  | 'sign'
  /** Signed-in console: top control menu and left menu. */
  | 'shell'
  /** Scene editors (/bim4/*, /home/*): top control menu, full-width work area. */
  | 'editor'
  /** Nothing around the page (preview, 404, logout). */
  | 'bare'

/** One route. */
export interface AppRoute {
  id: string
  /** Pattern with static segments, `:name` and optional `:name?` segments, or `*`. */
  pattern: string
  title: MessageDescriptor
  frame: RouteFrame
  /** SPEC §2 guard rule 4: passes without sign-in. */
  isPublic?: boolean
  /** SPEC §2 guard rule 3: entering it signs out. */
  isLogout?: boolean
  /** SPEC §2 guard rule 1: skips the guard entirely. */
  skipsGuard?: boolean
  /** Only admins see and may open it (SPEC §6 role management). */
  isAdminOnly?: boolean
}

const templateConfigurationTitle = msg`Template configuration`

/**
 * Ordered: the first matching pattern wins, so specific patterns precede general ones
 * (`/home/model/poi` before `/home/model/:tab?`) and `*` comes last.
 */
export const appRoutes = [
  { id: 'login', pattern: '/login', title: msg`Sign in`, frame: 'sign', isPublic: true },
  {
    id: 'logout',
    pattern: '/logout',
    title: msg`Sign out`,
    frame: 'bare',
    isPublic: true,
    isLogout: true,
  },
  { id: 'register', pattern: '/register', title: msg`Sign up`, frame: 'sign', isPublic: true },
  {
    id: 'forget',
    pattern: '/forget',
    title: msg`Forgot password`,
    frame: 'sign',
    isPublic: true,
  },
  {
    id: 'outPreview',
    pattern: '/bim4/outPreview',
    title: msg`Public preview`,
    frame: 'bare',
    isPublic: true,
    skipsGuard: true,
  },

  { id: 'projectList', pattern: '/projectManage/bim', title: msg`Project list`, frame: 'shell' },
  { id: 'projectCase', pattern: '/projectCase', title: msg`Project cases`, frame: 'shell' },
  { id: 'templateList', pattern: '/templateManage/bim', title: msg`Template list`, frame: 'shell' },
  {
    id: 'modelConfigCases',
    pattern: '/modelConfig',
    title: msg`Model configuration`,
    frame: 'shell',
  },
  {
    id: 'modelConfigMerge',
    pattern: '/modelConfig/merge',
    title: templateConfigurationTitle,
    frame: 'shell',
  },
  {
    id: 'modelConfigAdd',
    pattern: '/modelConfig/add',
    title: templateConfigurationTitle,
    frame: 'shell',
  },
  {
    id: 'modelConfigConversion',
    pattern: '/modelConfig/conversion',
    title: templateConfigurationTitle,
    frame: 'shell',
  },
  { id: 'systemPerson', pattern: '/system/person', title: msg`Personal info`, frame: 'shell' },
  {
    id: 'systemSecurity',
    pattern: '/system/security',
    title: msg`System settings`,
    frame: 'shell',
  },
  {
    id: 'systemUsers',
    pattern: '/system/users',
    title: msg`User management`,
    frame: 'shell',
    isAdminOnly: true,
  },
  {
    id: 'systemRoles',
    pattern: '/system/roles',
    title: msg`Role management`,
    frame: 'shell',
    isAdminOnly: true,
  },
  { id: 'note', pattern: '/note', title: msg`Version notes`, frame: 'shell' },
  {
    id: 'issue',
    pattern: '/issue',
    title: msg`Publish an announcement`,
    frame: 'shell',
    isAdminOnly: true,
  },
  { id: 'tbDevices', pattern: '/tbPage/devices', title: msg`Device page`, frame: 'shell' },
  { id: 'tbRuleChains', pattern: '/tbPage/ruleChains', title: msg`Rule page`, frame: 'shell' },
  {
    id: 'tbShadowEditor',
    pattern: '/tbPage/shadowEditor',
    title: msg`Shadow-render editor`,
    frame: 'shell',
  },
  {
    id: 'personalOrders',
    pattern: '/project/more/orders',
    title: msg`Personal orders`,
    frame: 'shell',
  },
  { id: 'orderDetails', pattern: '/project/more/ordetails', title: msg`My order`, frame: 'shell' },
  { id: 'balance', pattern: '/project/more/balance', title: msg`My balance`, frame: 'shell' },

  { id: 'bim4Poi', pattern: '/bim4/poi', title: msg`POI`, frame: 'editor' },
  { id: 'bim4PoiDevices', pattern: '/bim4/poi/devices', title: msg`IoT devices`, frame: 'editor' },
  { id: 'bim4PoiAlarms', pattern: '/bim4/poi/alarms', title: msg`Alarms`, frame: 'editor' },
  {
    id: 'bim4PoiLinkage',
    pattern: '/bim4/poi/linkage',
    title: msg`Event linkage`,
    frame: 'editor',
  },
  {
    id: 'bim4PoiVideo',
    pattern: '/bim4/poi/video',
    title: msg`Surveillance video`,
    frame: 'editor',
  },
  // Building projects: /bim4/{module}/{tab} (SPEC §2 "Sidebar path patterns").
  { id: 'bim4Model', pattern: '/bim4/model/:tab?', title: msg`Model`, frame: 'editor' },
  { id: 'bim4Gml', pattern: '/bim4/gml/:tab?', title: msg`GML path`, frame: 'editor' },
  { id: 'bim4Location', pattern: '/bim4/location/:tab?', title: msg`Location`, frame: 'editor' },
  { id: 'bim4Template', pattern: '/bim4/template/:tab?', title: msg`Template`, frame: 'editor' },
  { id: 'bim4Download', pattern: '/bim4/download', title: msg`Offline file`, frame: 'editor' },
  {
    id: 'bim4StyleOtherset',
    pattern: '/bim4/style/otherset',
    title: msg`Style setting`,
    frame: 'editor',
  },
  {
    id: 'bim4StyleLightset',
    pattern: '/bim4/style/lightset',
    title: msg`Light setting`,
    frame: 'editor',
  },
  { id: 'bim4VisitLink', pattern: '/bim4/visit/link', title: msg`Link browsing`, frame: 'editor' },
  { id: 'bim4VisitPreview', pattern: '/bim4/visit/preview', title: msg`Browse`, frame: 'editor' },
  {
    id: 'bim4VisitMoreCase',
    pattern: '/bim4/visit/moreCase',
    title: msg`More cases`,
    frame: 'editor',
  },
  {
    id: 'bim4VisitExpand',
    pattern: '/bim4/visit/expand',
    title: msg`Function expansion`,
    frame: 'editor',
  },

  // City projects: /home/{module}/{tab} (SPEC §2 "Sidebar path patterns").
  { id: 'cityModelPoi', pattern: '/home/model/poi', title: msg`Model POI`, frame: 'editor' },
  { id: 'cityMap', pattern: '/home/map/:tab?', title: msg`Map`, frame: 'editor' },
  { id: 'cityModel', pattern: '/home/model/:tab?', title: msg`Model`, frame: 'editor' },
  { id: 'cityPoi', pattern: '/home/poi/:tab?', title: msg`POI`, frame: 'editor' },
  { id: 'cityPath', pattern: '/home/path/:tab?', title: msg`Path`, frame: 'editor' },
  { id: 'cityLocation', pattern: '/home/location/:tab?', title: msg`Location`, frame: 'editor' },
  { id: 'cityStyle', pattern: '/home/style/:tab?', title: msg`Style`, frame: 'editor' },
  { id: 'cityTemplate', pattern: '/home/template/:tab?', title: msg`Template`, frame: 'editor' },
  { id: 'cityVisit', pattern: '/home/visit/:tab?', title: msg`Visit`, frame: 'editor' },

  {
    id: 'notFound',
    pattern: '*',
    title: msg`Page not found`,
    frame: 'bare',
    isPublic: true,
  },
] as const satisfies readonly AppRoute[]

/** Ids of all routes, so the page map in routes.tsx must cover every one. */
export type AppRouteId = (typeof appRoutes)[number]['id']

/**
 * SPEC §2 redirects, applied before the guard sees a path (as vue-router does). Chains are
 * followed: `/` → `/projectManage` → `/projectManage/bim`.
 */
export const routeRedirects: Readonly<Record<string, string>> = {
  '/': '/projectManage',
  '/projectManage': '/projectManage/bim',
  '/templateManage': '/templateManage/bim',
  '/system': '/system/person',
  '/tbPage': '/tbPage/devices',
  '/bim4': '/bim4/poi',
  '/bim4/style': '/bim4/style/otherset',
  '/bim4/visit': '/bim4/visit/link',
  // SPEC §9 "Default module name 'map'".
  '/home': '/home/map',
  '/project/more': '/project/more/ordetails',
}

/** A matched route with its path parameters. */
export interface RouteMatch {
  route: AppRoute & { id: AppRouteId }
  params: Record<string, string>
}

function normalisePath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return trimmed || '/'
}

/** Matches one pattern; segments compare case-insensitively, as the original router did. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  if (pattern === '*') return {}
  const patternSegments = pattern.split('/').filter(Boolean)
  const pathSegments = normalisePath(path).split('/').filter(Boolean)
  const params: Record<string, string> = {}
  let pathIndex = 0
  for (const segment of patternSegments) {
    const value = pathSegments[pathIndex]
    if (segment.startsWith(':')) {
      const isOptional = segment.endsWith('?')
      const name = segment.slice(1, isOptional ? -1 : undefined)
      if (value === undefined) {
        if (isOptional) continue
        return null
      }
      params[name] = decodeURIComponent(value)
      pathIndex += 1
    } else {
      if (value === undefined || value.toLowerCase() !== segment.toLowerCase()) return null
      pathIndex += 1
    }
  }
  return pathIndex === pathSegments.length ? params : null
}

/** The route a path renders (the 404 route when nothing else matches). */
export function matchAppRoute(path: string): RouteMatch {
  for (const route of appRoutes) {
    const params = matchPattern(route.pattern, path)
    if (params) return { route, params }
  }
  // Unreachable while `*` is last, but keeps the return type honest.
  const notFound = appRoutes[appRoutes.length - 1]!
  return { route: notFound, params: {} }
}

/** Follows the redirect table; returns the path unchanged when none applies. */
export function resolveRedirects(path: string): string {
  let current = normalisePath(path)
  // A bounded walk, so a mistaken cycle in the table cannot hang the router.
  for (let step = 0; step < 10; step += 1) {
    const key = Object.keys(routeRedirects).find(
      (from) => from.toLowerCase() === current.toLowerCase(),
    )
    if (key === undefined) return current
    current = routeRedirects[key]!
  }
  return current
}

/** SPEC §2: every page title reads '<page title> - Twinscape', the page title translated. */
export function pageTitle(i18n: I18n, route: Pick<AppRoute, 'title'>): string {
  return `${i18n._(route.title)} - ${productName}`
}

/** Whether a path needs no sign-in (public and guard-free routes). */
export function isPublicPath(path: string): boolean {
  const { route } = matchAppRoute(resolveRedirects(path))
  return Boolean(route.isPublic || route.skipsGuard)
}
