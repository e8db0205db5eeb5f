import * as templatesApi from '../../api/templates'

/**
 * The calls the template screens make. Screens take them as a prop defaulting to the server's,
 * so component tests can answer like the server does without a network.
 */
export interface TemplateServices {
  findCategoryTree: typeof templatesApi.findCategoryTree
  findLocationCategoryTree: typeof templatesApi.findLocationCategoryTree
  selectCategoryPage: typeof templatesApi.selectCategoryPage
  addCategory: typeof templatesApi.addCategory
  updateCategory: typeof templatesApi.updateCategory
  deleteCategory: typeof templatesApi.deleteCategory
  listTemplates: typeof templatesApi.listTemplates
  getTemplate: typeof templatesApi.getTemplate
  createTemplate: typeof templatesApi.createTemplate
  createMultiLevelTemplate: typeof templatesApi.createMultiLevelTemplate
  updateTemplate: typeof templatesApi.updateTemplate
  copyTemplate: typeof templatesApi.copyTemplate
  deleteTemplate: typeof templatesApi.deleteTemplate
  listAttributes: typeof templatesApi.listAttributes
  addAttribute: typeof templatesApi.addAttribute
  deleteAttribute: typeof templatesApi.deleteAttribute
  syncAttributes: typeof templatesApi.syncAttributes
  getLabels: typeof templatesApi.getLabels
  addLabel: typeof templatesApi.addLabel
  deleteLabel: typeof templatesApi.deleteLabel
  getEvents: typeof templatesApi.getEvents
  setEvents: typeof templatesApi.setEvents
  uploadIcon: typeof templatesApi.uploadIcon
  upload3dZip: typeof templatesApi.upload3dZip
  downloadBatchFile: typeof templatesApi.downloadBatchFile
  uploadBatchFile: typeof templatesApi.uploadBatchFile
}

/** The server's calls. */
export const serverTemplateServices: TemplateServices = {
  findCategoryTree: templatesApi.findCategoryTree,
  findLocationCategoryTree: templatesApi.findLocationCategoryTree,
  selectCategoryPage: templatesApi.selectCategoryPage,
  addCategory: templatesApi.addCategory,
  updateCategory: templatesApi.updateCategory,
  deleteCategory: templatesApi.deleteCategory,
  listTemplates: templatesApi.listTemplates,
  getTemplate: templatesApi.getTemplate,
  createTemplate: templatesApi.createTemplate,
  createMultiLevelTemplate: templatesApi.createMultiLevelTemplate,
  updateTemplate: templatesApi.updateTemplate,
  copyTemplate: templatesApi.copyTemplate,
  deleteTemplate: templatesApi.deleteTemplate,
  listAttributes: templatesApi.listAttributes,
  addAttribute: templatesApi.addAttribute,
  deleteAttribute: templatesApi.deleteAttribute,
  syncAttributes: templatesApi.syncAttributes,
  getLabels: templatesApi.getLabels,
  addLabel: templatesApi.addLabel,
  deleteLabel: templatesApi.deleteLabel,
  getEvents: templatesApi.getEvents,
  setEvents: templatesApi.setEvents,
  uploadIcon: templatesApi.uploadIcon,
  upload3dZip: templatesApi.upload3dZip,
  downloadBatchFile: templatesApi.downloadBatchFile,
  uploadBatchFile: templatesApi.uploadBatchFile,
}
