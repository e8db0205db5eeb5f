import type { FastifyInstance } from 'fastify'
import { registerAccountArea } from './accounts-area'
import { registerAuthRoutes } from './auth'
import { registerBuildingRoutes } from './building'
import { registerCityArea } from './city'
import { registerGmlRoutes } from './gml'
import { registerNoticeRoutes } from './notice'
import { registerProjectArea } from './project-area'
import { registerResumableUploadRoutes } from './resumable-upload'
import { registerSystemRoutes } from './system'
import { registerTemplateRoutes } from './templates'
import { registerTemplateFileRoutes } from './template-files'
import { registerUserRoutes } from './user'

/**
 * Every /web/ area, one file each (architecture.md §5). A new area exports
 * `register<Area>Routes(app)` built with defineRoute and is added to this list.
 */
const areas: Array<(app: FastifyInstance) => void> = [
  registerSystemRoutes,
  registerAuthRoutes,
  registerUserRoutes,
  registerNoticeRoutes,
  registerProjectArea,
  registerAccountArea,
  registerResumableUploadRoutes,
  registerGmlRoutes,
  registerBuildingRoutes,
  registerCityArea,
  registerTemplateRoutes,
  registerTemplateFileRoutes,
]

/** Registers the routes of every area. */
export function registerWebRoutes(app: FastifyInstance): void {
  for (const register of areas) register(app)
}
