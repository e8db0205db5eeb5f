import type { FastifyInstance } from 'fastify'
import { templateCalls } from '../../../contract/templates'
import { defineRoute } from '../../http/define-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import {
  type CategoriesService,
  createCategoriesService,
} from '../../modules/templates/categories.service'
import {
  createTemplatePartsService,
  type TemplatePartsService,
} from '../../modules/templates/template-parts.service'
import {
  createTemplatePoisService,
  type TemplatePoisService,
} from '../../modules/templates/template-pois.service'
import { seedTemplateLibrary } from '../../modules/templates/template-seed'
import {
  createTemplatesService,
  type TemplatesService,
} from '../../modules/templates/templates.service'
import { projectAreaOf } from './project-area'

/** The services of the template area, made once per app. */
export interface TemplateArea {
  categories: CategoriesService
  templates: TemplatesService
  parts: TemplatePartsService
  pois: TemplatePoisService
}

const areas = new WeakMap<FastifyInstance, TemplateArea>()

/** The template area's services for an app (other areas, e.g. template uploads, use them too). */
export function templateAreaOf(app: FastifyInstance): TemplateArea {
  let area = areas.get(app)
  if (!area) {
    const { database, clock } = app.deps
    const categories = createCategoriesService({ database, clock })
    area = {
      categories,
      templates: createTemplatesService({ database, clock, categories }),
      parts: createTemplatePartsService({ database, clock }),
      pois: createTemplatePoisService({ database, clock, access: projectAreaOf(app).access }),
    }
    areas.set(app, area)
  }
  return area
}

/**
 * POI categories and templates (issue 15, contract/templates.ts): `/systempoicategory/*`, the
 * `/poi` category, template, custom-property, label and event calls, and the POI sync calls.
 * Seeds the 2D template library on an empty database once the app is ready.
 */
export function registerTemplateRoutes(app: FastifyInstance): void {
  const { categories, templates, parts, pois } = templateAreaOf(app)
  const calls = templateCalls
  projectAreaOf(app).lifecycleHooks.push(pois.lifecycleHook)

  // categories
  defineRoute(app, {
    method: 'POST',
    ...calls.addSystemCategory,
    handler: ({ body, user }) => categories.add(user, body, 'system'),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updateSystemCategory,
    handler: ({ body, user }) => categories.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.deleteSystemCategory,
    handler: ({ body, user }) => categories.remove(user, body.id),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.findCategory,
    handler: ({ body, user }) => categories.find(user, body.id),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.findAllCategories,
    handler: ({ user }) => categories.forest(user, 'poi'),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.findLocationCategories,
    handler: ({ user }) => categories.forest(user, 'location'),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.findCategoryGroups,
    handler: async ({ body, user }) => {
      const tree = await categories.treeOf(user.id)
      const rootId = body.id === undefined || String(body.id) === '0' ? undefined : String(body.id)
      const roots = rootId === undefined ? ['1', '2'] : [rootId]
      const groups = []
      for (const root of roots) {
        if (!tree.byId.has(root)) await categories.find(user, root)
        for (const categoryId of tree.subtreeIds(root)) {
          const row = tree.byId.get(categoryId)
          if (row?.kind !== 'poi') continue
          const page = await templates.page(
            user,
            { category_id: categoryId, scope: 'all' },
            { pageNo: 1, pageSize: 100 },
          )
          // only the templates filed directly under this category
          const own = page.list.filter((template) => template.category_id === categoryId)
          groups.push({ category: tree.toCategory(row, user), templates: own })
        }
      }
      return groups
    },
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.createCategory,
    handler: ({ body, user }) => categories.add(user, body, 'own'),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updateCategory,
    handler: ({ body, user }) => categories.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.deleteCategory,
    handler: ({ body, user }) => categories.remove(user, body.id),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.selectCategoryChildren,
    handler: ({ body, user }) => categories.children(user, body.pid),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.selectCategoryPage,
    handler: ({ body, query, user }) => categories.page(user, body, query),
  })

  // templates
  defineRoute(app, {
    method: 'POST',
    ...calls.selectTemplate,
    handler: ({ body, user }) => templates.find(user, body.id),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.createTemplate,
    handler: ({ body, user }) => templates.create(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updateTemplate,
    handler: ({ body, user }) => templates.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.createMultiLevelTemplate,
    handler: ({ body, user }) => templates.createMultiLevel(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.saveMultiLevelTemplate,
    handler: ({ body, user }) => templates.saveMultiLevel(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.selectTemplatePage,
    handler: ({ body, query, user }) => templates.page(user, body, query),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.copyTemplate,
    handler: ({ body, user, request }) =>
      templates.copy(user, body, messageLanguageOf(request.headers.cookie)),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.deleteTemplate,
    handler: ({ body, user }) => templates.remove(user, body.id),
  })

  // static attributes, labels, events
  defineRoute(app, {
    method: 'POST',
    ...calls.selectProperties,
    handler: ({ body, user }) => parts.properties(user, body.poicategoryid),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.createProperty,
    handler: ({ body, user }) => parts.createProperty(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updateProperty,
    handler: ({ body, user }) => parts.updateProperty(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.deleteProperty,
    handler: async ({ body, user }) => {
      await parts.deleteProperty(user, body.id)
      return null
    },
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.createLabel,
    handler: ({ body, user }) => parts.createLabel(user, body.id, body.label.labelKey),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.getLabels,
    handler: ({ body, user }) => parts.labels(user, body.id),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updateLabel,
    handler: ({ body, user }) => parts.updateLabel(user, body.id, body.labelKey),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.deleteLabel,
    handler: async ({ body, user }) => {
      await parts.deleteLabel(user, body.id, body.status)
      return null
    },
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.selectEvents,
    handler: ({ body, user }) => parts.events(user, body.poicategoryid),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updateEvents,
    handler: ({ body, user }) => parts.updateEvents(user, body.poicategoryid, body.events),
  })

  // POIs made from templates
  defineRoute(app, {
    method: 'POST',
    ...calls.syncProperties,
    handler: ({ body, user }) => pois.syncProperties(user, body.poicategoryid),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.syncProjectProperties,
    handler: ({ body, user }) => pois.syncProperties(user, body.poicategoryid, body.project_id),
  })
  defineRoute(app, {
    method: 'POST',
    ...calls.updatePoiTemplate,
    handler: ({ body, user }) => pois.changeTemplate(user, body.id, body.poicategoryid),
  })

  app.addHook('onReady', async () => {
    const { database, storage, clock, config, repositories } = app.deps
    const seeded = await seedTemplateLibrary({
      database,
      storage,
      clock,
      users: repositories.users,
      adminName: config.adminName,
    })
    if (seeded > 0) app.log.info({ templates: seeded }, 'template library seeded')
  })
}
