import { type ComponentType, lazy } from 'react'
import { LogoutPage, NotFoundPage } from '../pages/misc/NotFoundPage'
import { ForgetPage } from '../pages/sign/ForgetPage'
import { LoginPage } from '../pages/sign/LoginPage'
import { RegisterPage } from '../pages/sign/RegisterPage'
import type { PageProps } from './page-props'
import type { AppRouteId } from './route-table'

/**
 * Pages behind sign-in load on first visit, each in its own chunk: the map (MapLibre, deck.gl)
 * and 3D (three.js) code is ~2 MB that the sign-in page never needs. The sign pages stay in the
 * main chunk so the first screen of a new visitor needs no second round trip.
 */
function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType<PageProps>>>,
  name: Name,
): ComponentType<PageProps> {
  return lazy(
    async (): Promise<{ default: ComponentType<PageProps> }> => ({
      default: (await load())[name],
    }),
  )
}

// One lazy component per page module, so every /bim4 (and /home) route shares one component
// identity and React keeps the editor mounted between its tabs.
const Bim4Page = lazyPage(() => import('../pages/bim4/Bim4Page'), 'Bim4Page')
const CityEditorPage = lazyPage(() => import('../pages/city/CityEditorPage'), 'CityEditorPage')
const IssuePage = lazyPage(() => import('../pages/issue/IssuePage'), 'IssuePage')
const ModelConversionPage = lazyPage(
  () => import('../pages/model-config/ModelConversionPage'),
  'ModelConversionPage',
)
const ModelMergePage = lazyPage(
  () => import('../pages/model-config/ModelMergePage'),
  'ModelMergePage',
)
const ModelConfigCasesPage = lazyPage(
  () => import('../pages/model-config/ModelConfigCasesPage'),
  'ModelConfigCasesPage',
)
const StructureAddPage = lazyPage(
  () => import('../pages/model-config/StructureAddPage'),
  'StructureAddPage',
)
const NotePage = lazyPage(() => import('../pages/note/NotePage'), 'NotePage')
const PreviewPage = lazyPage(() => import('../pages/preview/PreviewPage'), 'PreviewPage')
const ProjectCasePage = lazyPage(
  () => import('../pages/project-case/ProjectCasePage'),
  'ProjectCasePage',
)
const ProjectManagePage = lazyPage(
  () => import('../pages/project-manage/ProjectManagePage'),
  'ProjectManagePage',
)
const BalancePage = lazyPage(() => import('../pages/orders/BalancePage'), 'BalancePage')
const OrderDetailsPage = lazyPage(
  () => import('../pages/orders/OrderDetailsPage'),
  'OrderDetailsPage',
)
const OrdersPage = lazyPage(() => import('../pages/orders/OrdersPage'), 'OrdersPage')
const PersonPage = lazyPage(() => import('../pages/system/PersonPage'), 'PersonPage')
const RolesPage = lazyPage(() => import('../pages/system/RolesPage'), 'RolesPage')
const SecurityPage = lazyPage(() => import('../pages/system/SecurityPage'), 'SecurityPage')
const TemplateManagePage = lazyPage(
  () => import('../pages/template-manage/TemplateManagePage'),
  'TemplateManagePage',
)
const ShadowEditorPage = lazyPage(() => import('../pages/tb/ShadowEditorPage'), 'ShadowEditorPage')
const TbDevicesPage = lazyPage(() => import('../pages/tb/ThingsboardPage'), 'TbDevicesPage')
const TbRuleChainsPage = lazyPage(() => import('../pages/tb/ThingsboardPage'), 'TbRuleChainsPage')
const UsersPage = lazyPage(() => import('../pages/system/UsersPage'), 'UsersPage')

/** Marks a route whose page another capability provides; a placeholder says what will be there. */
export const planned = 'planned'

/**
 * The page of every route. A Record over all route ids, so adding a route without a page fails
 * to compile. Capabilities built elsewhere replace their `planned` entry with their page.
 */
export const routePages: Record<AppRouteId, ComponentType<PageProps> | typeof planned> = {
  login: LoginPage,
  logout: LogoutPage,
  register: RegisterPage,
  forget: ForgetPage,
  outPreview: PreviewPage,
  projectList: ProjectManagePage,
  projectCase: ProjectCasePage,
  templateList: TemplateManagePage,
  modelConfigCases: ModelConfigCasesPage,
  modelConfigMerge: ModelMergePage,
  modelConfigAdd: StructureAddPage,
  modelConfigConversion: ModelConversionPage,
  systemPerson: PersonPage,
  systemSecurity: SecurityPage,
  systemUsers: UsersPage,
  systemRoles: RolesPage,
  note: NotePage,
  issue: IssuePage,
  tbDevices: TbDevicesPage,
  tbRuleChains: TbRuleChainsPage,
  tbShadowEditor: ShadowEditorPage,
  personalOrders: OrdersPage,
  orderDetails: OrderDetailsPage,
  balance: BalancePage,
  // One component for every /bim4 page, so React keeps the editor (engine, canvas, scene)
  // mounted while the user moves between its modules and tabs.
  bim4Poi: Bim4Page,
  bim4PoiDevices: Bim4Page,
  bim4PoiAlarms: Bim4Page,
  bim4PoiLinkage: Bim4Page,
  bim4PoiVideo: Bim4Page,
  bim4Model: Bim4Page,
  bim4Gml: Bim4Page,
  bim4Location: Bim4Page,
  bim4Template: Bim4Page,
  bim4Download: Bim4Page,
  bim4StyleOtherset: Bim4Page,
  bim4StyleLightset: Bim4Page,
  bim4VisitLink: Bim4Page,
  bim4VisitPreview: Bim4Page,
  bim4VisitMoreCase: Bim4Page,
  bim4VisitExpand: Bim4Page,
  cityModelPoi: CityEditorPage,
  cityMap: CityEditorPage,
  cityModel: CityEditorPage,
  cityPoi: CityEditorPage,
  cityPath: CityEditorPage,
  cityLocation: CityEditorPage,
  cityStyle: CityEditorPage,
  cityTemplate: CityEditorPage,
  cityVisit: CityEditorPage,
  notFound: NotFoundPage,
}
