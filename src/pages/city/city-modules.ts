import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/**
 * The city editor's sidebar modules and their sub-tabs (SPEC §2 "City project sidebar", "City
 * sub-tabs"), as data: the sidebar, the tab strip and the path parser all read this one table,
 * so a tab cannot exist in one place and be missing in another. Paths are /home/{module}/{tab}.
 */

/** The sidebar's modules ("switch project" is an action, not a module). */
export type CityModuleId =
  | 'map'
  | 'model'
  | 'poi'
  | 'path'
  | 'location'
  | 'style'
  | 'template'
  | 'visit'

/** One sub-tab of a module. */
export interface CityTab {
  /** The last path segment, e.g. `oblique` in /home/map/oblique. */
  id: string
  title: MessageDescriptor
  /** False while another part of the product still has to provide the tab's content. */
  isBuilt: boolean
}

/** One sidebar module. */
export interface CityModule {
  id: CityModuleId
  title: MessageDescriptor
  /** An SVG path (24×24 view box) drawn as the sidebar icon. */
  iconPath: string
  tabs: readonly CityTab[]
  /** The tab /home/{module} opens; a built tab where there is one. */
  defaultTabId: string
}

/** SPEC §9 "Default module name 'map'". */
export const defaultCityModuleId: CityModuleId = 'map'

/** Every module in sidebar order, with its tabs in the spec's order. */
export const cityModules: readonly CityModule[] = [
  {
    id: 'map',
    title: msg`Map`,
    iconPath: 'M3 6l6-3 6 3 6-3v15l-6 3-6-3-6 3z M9 3v15 M15 6v15',
    tabs: [
      { id: 'area', title: msg`Area division`, isBuilt: true },
      { id: 'oblique', title: msg`Oblique photography`, isBuilt: true },
    ],
    defaultTabId: 'oblique',
  },
  {
    id: 'model',
    title: msg`Model`,
    iconPath: 'M12 2l9 5v10l-9 5-9-5V7z M12 12l9-5 M12 12v10 M12 12L3 7',
    tabs: [
      { id: 'library', title: msg`Model library`, isBuilt: true },
      { id: 'monomer', title: msg`Monomer`, isBuilt: true },
      { id: 'poi', title: msg`Model POI`, isBuilt: true },
      { id: 'animation', title: msg`Model animation`, isBuilt: true },
    ],
    defaultTabId: 'monomer',
  },
  {
    id: 'poi',
    title: msg`POI`,
    iconPath:
      'M12 22s7-7.5 7-13a7 7 0 0 0-14 0c0 5.5 7 13 7 13z M12 11.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5',
    tabs: [
      { id: 'manage', title: msg`Manage POI`, isBuilt: true },
      { id: 'inventory', title: msg`POI inventory`, isBuilt: true },
      { id: 'monomerPoi', title: msg`Monomer POI`, isBuilt: true },
      // the live twin (issue 17): the project's alarms, as in the building editor
      { id: 'alarms', title: msg`Alarms`, isBuilt: true },
    ],
    defaultTabId: 'manage',
  },
  {
    id: 'path',
    title: msg`Path`,
    iconPath:
      'M5 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z M19 9a2 2 0 1 0 0-4 2 2 0 0 0 0 4z M5 15V9a4 4 0 0 1 8 0v6a4 4 0 0 0 4 0',
    tabs: [
      { id: 'programming', title: msg`Path programming`, isBuilt: true },
      { id: 'navigation', title: msg`Path navigation`, isBuilt: true },
    ],
    defaultTabId: 'programming',
  },
  {
    id: 'location',
    title: msg`Location`,
    iconPath: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z M12 2v3 M12 19v3 M2 12h3 M19 12h3',
    tabs: [
      { id: 'gps', title: msg`GPS positioning`, isBuilt: true },
      { id: 'anchor', title: msg`Anchor point set`, isBuilt: true },
      { id: 'fence', title: msg`Electronic fence`, isBuilt: true },
    ],
    defaultTabId: 'gps',
  },
  {
    id: 'style',
    title: msg`Style`,
    iconPath:
      'M12 3a9 9 0 1 0 0 18c1.5 0 2-1 2-2s-1-2 0-3 3 0 4-1 3-2 3-4a9 9 0 0 0-9-8z M7.5 11.5h.01 M10 7.5h.01 M15 7.5h.01',
    tabs: [
      { id: 'basemap', title: msg`Basemap setting`, isBuilt: true },
      { id: 'model', title: msg`Model setting`, isBuilt: true },
      { id: 'personal', title: msg`Personal setting`, isBuilt: true },
      { id: 'other', title: msg`Other setting`, isBuilt: true },
    ],
    defaultTabId: 'basemap',
  },
  {
    id: 'template',
    title: msg`Template`,
    iconPath: 'M4 4h7v7H4z M13 4h7v7h-7z M4 13h7v7H4z M13 13h7v7h-7z',
    tabs: [{ id: 'list', title: msg`Template`, isBuilt: true }],
    defaultTabId: 'list',
  },
  {
    id: 'visit',
    title: msg`Visit`,
    iconPath: 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6',
    tabs: [
      { id: 'tour', title: msg`View tour`, isBuilt: true },
      { id: 'preview', title: msg`Preview`, isBuilt: false },
      { id: 'moreCases', title: msg`More cases`, isBuilt: false },
    ],
    defaultTabId: 'tour',
  },
]

/** The address of a module's tab. */
export function cityTabPath(moduleId: CityModuleId, tabId: string): string {
  return `/home/${moduleId}/${tabId}`
}

/** Where the city editor is: the module and the tab shown. */
export interface CityLocation {
  module: CityModule
  tab: CityTab
}

/**
 * Reads /home/{module}/{tab} (segments compare case-insensitively, as the router does). An
 * unknown module falls back to the default module and a missing or unknown tab to the module's
 * default tab, so an old bookmark still opens something sensible.
 */
export function parseCityPath(path: string): CityLocation {
  const [, home, moduleSegment, tabSegment] = path.split('/')
  const isHome = home?.toLowerCase() === 'home'
  const module =
    (isHome &&
      cityModules.find((item) => item.id.toLowerCase() === moduleSegment?.toLowerCase())) ||
    (cityModules.find((item) => item.id === defaultCityModuleId) as CityModule)
  const tab =
    module.tabs.find((item) => item.id.toLowerCase() === tabSegment?.toLowerCase()) ??
    (module.tabs.find((item) => item.id === module.defaultTabId) as CityTab)
  return { module, tab }
}
