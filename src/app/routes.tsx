import type { ComponentType } from 'react'
import { Bim4Page } from '../pages/bim4/Bim4Page'
import { CityEditorPage } from '../pages/city/CityEditorPage'
import { IssuePage } from '../pages/issue/IssuePage'
import { LogoutPage, NotFoundPage } from '../pages/misc/NotFoundPage'
import { ModelConversionPage } from '../pages/model-config/ModelConversionPage'
import { NotePage } from '../pages/note/NotePage'
import { ProjectCasePage } from '../pages/project-case/ProjectCasePage'
import { ProjectManagePage } from '../pages/project-manage/ProjectManagePage'
import { ForgetPage } from '../pages/sign/ForgetPage'
import { LoginPage } from '../pages/sign/LoginPage'
import { RegisterPage } from '../pages/sign/RegisterPage'
import { PersonPage } from '../pages/system/PersonPage'
import { RolesPage } from '../pages/system/RolesPage'
import { SecurityPage } from '../pages/system/SecurityPage'
import { UsersPage } from '../pages/system/UsersPage'
import type { PageProps } from './page-props'
import type { AppRouteId } from './route-table'

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
  outPreview: planned,
  projectList: ProjectManagePage,
  projectCase: ProjectCasePage,
  templateList: planned,
  modelConfigCases: planned,
  modelConfigMerge: planned,
  modelConfigAdd: planned,
  modelConfigConversion: ModelConversionPage,
  systemPerson: PersonPage,
  systemSecurity: SecurityPage,
  systemUsers: UsersPage,
  systemRoles: RolesPage,
  note: NotePage,
  issue: IssuePage,
  tbDevices: planned,
  tbRuleChains: planned,
  personalOrders: planned,
  orderDetails: planned,
  balance: planned,
  // One component for every /bim4 page, so React keeps the editor (engine, canvas, scene)
  // mounted while the user moves between its modules and tabs.
  bim4Poi: Bim4Page,
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
