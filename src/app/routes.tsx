import type { ComponentType } from 'react'
import { IssuePage } from '../pages/issue/IssuePage'
import { LogoutPage, NotFoundPage } from '../pages/misc/NotFoundPage'
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
  modelConfigConversion: planned,
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
  bim4Poi: planned,
  bim4Download: planned,
  bim4StyleOtherset: planned,
  bim4StyleLightset: planned,
  bim4VisitLink: planned,
  bim4VisitPreview: planned,
  bim4VisitMoreCase: planned,
  bim4VisitExpand: planned,
  cityModelPoi: planned,
  cityMap: planned,
  cityModel: planned,
  cityPoi: planned,
  cityPath: planned,
  cityLocation: planned,
  cityStyle: planned,
  cityTemplate: planned,
  cityVisit: planned,
  notFound: NotFoundPage,
}
