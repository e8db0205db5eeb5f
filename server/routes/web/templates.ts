import type { FastifyInstance } from 'fastify'
import { templateRoutes as routes } from '../../../contract/templates'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'

/**
 * POI categories and templates (issue 15, contract/templates.ts): `/systempoicategory/*`, the
 * `/poi` category, template, custom-property, label and event calls, and the POI sync calls.
 */
export function registerTemplateRoutes(app: FastifyInstance, services: ServerServices): void {
  const { categories, templates, templateParts: parts, templatePois: pois } = services

  // categories
  defineRoute(app, routes.addSystemCategory, {
    handler: ({ body, user }) => categories.add(user, body, 'system'),
  })
  defineRoute(app, routes.updateSystemCategory, {
    handler: ({ body, user }) => categories.update(user, body),
  })
  defineRoute(app, routes.deleteSystemCategory, {
    handler: ({ body, user }) => categories.remove(user, body.id),
  })
  defineRoute(app, routes.findCategory, {
    handler: ({ body, user }) => categories.find(user, body.id),
  })
  defineRoute(app, routes.findAllCategories, {
    handler: ({ user }) => categories.forest(user, 'poi'),
  })
  defineRoute(app, routes.findLocationCategories, {
    handler: ({ user }) => categories.forest(user, 'location'),
  })
  defineRoute(app, routes.findCategoryGroups, {
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
  defineRoute(app, routes.createCategory, {
    handler: ({ body, user }) => categories.add(user, body, 'own'),
  })
  defineRoute(app, routes.updateCategory, {
    handler: ({ body, user }) => categories.update(user, body),
  })
  defineRoute(app, routes.deleteCategory, {
    handler: ({ body, user }) => categories.remove(user, body.id),
  })
  defineRoute(app, routes.selectCategoryChildren, {
    handler: ({ body, user }) => categories.children(user, body.pid),
  })
  defineRoute(app, routes.selectCategoryPage, {
    handler: ({ body, query, user }) => categories.page(user, body, query),
  })

  // templates
  defineRoute(app, routes.selectTemplate, {
    handler: ({ body, user }) => templates.find(user, body.id),
  })
  defineRoute(app, routes.createTemplate, {
    handler: ({ body, user }) => templates.create(user, body),
  })
  defineRoute(app, routes.updateTemplate, {
    handler: ({ body, user }) => templates.update(user, body),
  })
  defineRoute(app, routes.createMultiLevelTemplate, {
    handler: ({ body, user }) => templates.createMultiLevel(user, body),
  })
  defineRoute(app, routes.saveMultiLevelTemplate, {
    handler: ({ body, user }) => templates.saveMultiLevel(user, body),
  })
  defineRoute(app, routes.selectTemplatePage, {
    handler: ({ body, query, user }) => templates.page(user, body, query),
  })
  defineRoute(app, routes.copyTemplate, {
    handler: ({ body, user, request }) =>
      templates.copy(user, body, messageLanguageOf(request.headers.cookie)),
  })
  defineRoute(app, routes.deleteTemplate, {
    handler: ({ body, user }) => templates.remove(user, body.id),
  })

  // static attributes, labels, events
  defineRoute(app, routes.selectProperties, {
    handler: ({ body, user }) => parts.properties(user, body.poicategoryid),
  })
  defineRoute(app, routes.createProperty, {
    handler: ({ body, user }) => parts.createProperty(user, body),
  })
  defineRoute(app, routes.updateProperty, {
    handler: ({ body, user }) => parts.updateProperty(user, body),
  })
  defineRoute(app, routes.deleteProperty, {
    handler: async ({ body, user }) => {
      await parts.deleteProperty(user, body.id)
      return null
    },
  })
  defineRoute(app, routes.createLabel, {
    handler: ({ body, user }) => parts.createLabel(user, body.id, body.label.labelKey),
  })
  defineRoute(app, routes.getLabels, {
    handler: ({ body, user }) => parts.labels(user, body.id),
  })
  defineRoute(app, routes.updateLabel, {
    handler: ({ body, user }) => parts.updateLabel(user, body.id, body.labelKey),
  })
  defineRoute(app, routes.deleteLabel, {
    handler: async ({ body, user }) => {
      await parts.deleteLabel(user, body.id, body.status)
      return null
    },
  })
  defineRoute(app, routes.selectEvents, {
    handler: ({ body, user }) => parts.events(user, body.poicategoryid),
  })
  defineRoute(app, routes.updateEvents, {
    handler: ({ body, user }) => parts.updateEvents(user, body.poicategoryid, body.events),
  })

  // POIs made from templates
  defineRoute(app, routes.syncProperties, {
    handler: ({ body, user }) => pois.syncProperties(user, body.poicategoryid),
  })
  defineRoute(app, routes.syncProjectProperties, {
    handler: ({ body, user }) => pois.syncProperties(user, body.poicategoryid, body.project_id),
  })
  defineRoute(app, routes.updatePoiTemplate, {
    handler: ({ body, user }) => pois.changeTemplate(user, body.id, body.poicategoryid),
  })
}
