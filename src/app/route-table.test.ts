import { i18n } from '@lingui/core'
import { afterEach, describe, expect, it } from 'vitest'
import { activateLanguage } from '../i18n/i18n'
import {
  appRoutes,
  isPublicPath,
  matchAppRoute,
  matchPattern,
  pageTitle,
  resolveRedirects,
  routeRedirects,
} from './route-table'

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: undoing what activateLanguage wrote
  document.cookie = 'language=; path=/; max-age=0'
})

describe('route table (SPEC §2)', () => {
  it('registers every route of the spec', () => {
    const patterns = appRoutes.map((route) => route.pattern)
    for (const path of [
      '/login',
      '/logout',
      '/register',
      '/forget',
      '/bim4/outPreview',
      '/projectManage/bim',
      '/templateManage/bim',
      '/modelConfig/merge',
      '/modelConfig/add',
      '/modelConfig/conversion',
      '/projectCase',
      '/system/person',
      '/system/security',
      '/note',
      '/issue',
      '/tbPage/devices',
      '/tbPage/ruleChains',
      '/project/more/ordetails',
      '/bim4/poi',
      '/bim4/download',
      '/bim4/style/otherset',
      '/bim4/style/lightset',
      '/bim4/visit/link',
      '/bim4/visit/preview',
      '/bim4/visit/moreCase',
      '/bim4/visit/expand',
      '*',
    ]) {
      expect(patterns, path).toContain(path)
    }
    expect(resolveRedirects('/')).toBe('/projectManage/bim')
    expect(resolveRedirects('/bim4/style')).toBe('/bim4/style/otherset')
    expect(resolveRedirects('/bim4/visit')).toBe('/bim4/visit/link')
    for (const target of Object.values(routeRedirects)) {
      expect(matchAppRoute(resolveRedirects(target)).route.id).not.toBe('notFound')
    }
  })

  it('matches city paths /home/{module}/{tab} and the model-POI page first', () => {
    expect(matchAppRoute('/home/model/poi').route.id).toBe('cityModelPoi')
    expect(matchAppRoute('/home/model/library').route.id).toBe('cityModel')
    expect(matchAppRoute('/home/map').route.id).toBe('cityMap')
    expect(matchAppRoute('/home/nothing/here').route.id).toBe('notFound')
    expect(matchPattern('/home/map/:tab?', '/home/map/area')).toEqual({ tab: 'area' })
  })

  it('knows which pages need no sign-in', () => {
    expect(isPublicPath('/login')).toBe(true)
    expect(isPublicPath('/bim4/outPreview')).toBe(true)
    expect(isPublicPath('/unknown')).toBe(true)
    expect(isPublicPath('/system/person')).toBe(false)
    expect(isPublicPath('/')).toBe(false)
  })

  it("titles every page '<page title> - Twinscape'", () => {
    expect(pageTitle(i18n, matchAppRoute('/system/security').route)).toBe(
      'System settings - Twinscape',
    )
    expect(pageTitle(i18n, matchAppRoute('/modelConfig/add').route)).toBe(
      'Template configuration - Twinscape',
    )
    for (const route of appRoutes) {
      expect(pageTitle(i18n, route)).toMatch(/^\S.* - Twinscape$/)
    }
  })

  it('translates every title', async () => {
    const english = new Map(appRoutes.map((route) => [route.id, pageTitle(i18n, route)]))
    await activateLanguage('ko')
    expect(pageTitle(i18n, matchAppRoute('/login').route)).toBe('로그인 - Twinscape')
    for (const route of appRoutes) {
      const title = pageTitle(i18n, route)
      expect(title).toMatch(/ - Twinscape$/)
      if (route.id !== 'bim4Poi' && route.id !== 'cityPoi')
        expect(title, route.id).not.toBe(english.get(route.id))
    }
    await activateLanguage('zh')
    expect(pageTitle(i18n, matchAppRoute('/note').route)).toBe('版本说明 - Twinscape')
  })
})
