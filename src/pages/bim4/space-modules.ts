import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/**
 * The building ("space") editor's modules and their sub-tabs as data (SPEC §2 "Space project
 * sidebar" and "Space sub-tabs"), so the sidebar, the side panel's tab list and the tests share
 * one source. Paths follow SPEC §2 "Sidebar path patterns": /bim4/{module}/{tab}.
 */

/** Modules of the sidebar that open a panel (switch project and back are actions). */
export type SpaceModuleId =
  | 'model'
  | 'poi'
  | 'gml'
  | 'location'
  | 'download'
  | 'template'
  | 'style'
  | 'visit'

/** One sub-tab of a module. */
export interface SpaceTab {
  /** The last path segment, e.g. `library` in /bim4/model/library. */
  id: string
  label: MessageDescriptor
  /** The full path the tab opens. */
  path: string
}

/** One sidebar entry that opens a module. */
export interface SpaceModule {
  id: SpaceModuleId
  label: MessageDescriptor
  /** Where the sidebar link goes: the module's first tab. */
  path: string
  /** Sub-tabs in SPEC order; one tab means the panel shows no tab list. */
  tabs: readonly SpaceTab[]
}

function tab(id: string, label: MessageDescriptor, path: string): SpaceTab {
  return { id, label, path }
}

/** SPEC §2 sidebar order: Model, POI, GML path, location, download, template, style, visit. */
export const spaceModules: readonly SpaceModule[] = [
  {
    id: 'model',
    label: msg`Model`,
    path: '/bim4/model/library',
    tabs: [
      tab('library', msg`Model library`, '/bim4/model/library'),
      // the material library and its assignment to picked meshes (issue 21)
      tab('materials', msg`Materials`, '/bim4/model/materials'),
      // glTF/SBM models placed in the building by a click, and their animations (issue 21)
      tab('placed', msg`Placed models`, '/bim4/model/placed'),
      tab('animation', msg`Model animation`, '/bim4/model/animation'),
      // the models' details by manufacturer (issue 21); entered in the pick info box
      tab('equipment', msg`Equipment`, '/bim4/model/equipment'),
    ],
  },
  {
    id: 'poi',
    label: msg`POI`,
    path: '/bim4/poi',
    tabs: [
      tab('inventory', msg`POI inventory`, '/bim4/poi'),
      // the live twin (issue 17): the devices behind the POIs and their alarms
      tab('devices', msg`IoT devices`, '/bim4/poi/devices'),
      tab('alarms', msg`Alarms`, '/bim4/poi/alarms'),
      // what an event of a POI sets off (SPEC §2 POI linkage panel), and the cameras' videos
      tab('linkage', msg`Event linkage`, '/bim4/poi/linkage'),
      tab('video', msg`Surveillance video`, '/bim4/poi/video'),
    ],
  },
  {
    id: 'gml',
    label: msg`GML path`,
    path: '/bim4/gml/path',
    tabs: [tab('path', msg`GML path`, '/bim4/gml/path')],
  },
  {
    id: 'location',
    label: msg`Location`,
    path: '/bim4/location',
    tabs: [tab('anchor', msg`Location`, '/bim4/location')],
  },
  {
    id: 'download',
    label: msg`Download`,
    path: '/bim4/download',
    tabs: [tab('offline', msg`Offline file`, '/bim4/download')],
  },
  {
    id: 'template',
    label: msg`Template`,
    path: '/bim4/template',
    tabs: [tab('list', msg`Template`, '/bim4/template')],
  },
  {
    id: 'style',
    label: msg`Style`,
    path: '/bim4/style/otherset',
    tabs: [
      tab('otherset', msg`Style setting`, '/bim4/style/otherset'),
      tab('lightset', msg`Light setting`, '/bim4/style/lightset'),
    ],
  },
  {
    id: 'visit',
    label: msg`Visit`,
    path: '/bim4/visit/link',
    tabs: [
      tab('link', msg`Link browsing`, '/bim4/visit/link'),
      tab('preview', msg`Preview`, '/bim4/visit/preview'),
      tab('moreCase', msg`More cases`, '/bim4/visit/moreCase'),
      tab('expand', msg`Function expansion`, '/bim4/visit/expand'),
    ],
  },
]

/** Which module and tab a /bim4 path shows; POI (the editor's landing page) for anything else. */
export function spaceLocationOf(path: string): { module: SpaceModule; tab: SpaceTab } {
  const [, root, moduleSegment, tabSegment] = path.split('/')
  const module =
    root?.toLowerCase() === 'bim4'
      ? spaceModules.find((candidate) => candidate.id === moduleSegment?.toLowerCase())
      : undefined
  const resolved = module ?? (spaceModules[1] as SpaceModule)
  const wantedTab = tabSegment?.toLowerCase()
  const matchedTab =
    resolved.tabs.find((candidate) => candidate.id.toLowerCase() === wantedTab) ??
    (resolved.tabs[0] as SpaceTab)
  return { module: resolved, tab: matchedTab }
}

/** Where "back" leads: the project home, scrolled to the space (building) list. */
export const spaceBackPath = '/projectManage/bim?kind=space'
