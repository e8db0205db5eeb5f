import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import type { Category, Template, TemplatePage } from '../../api/templates'
import { Button, confirmDelete, LoadStates, TextField, toast } from '../../ui'
import { errorText, showErrorToast } from '../feedback/error-text'
import { usePermissions } from '../use-permissions'
import { CategoryManagerDialog } from './CategoryManagerDialog'
import { PagedSelect } from './PagedSelect'
import { PoiTemplateFileDialog } from './PoiTemplateFileDialog'
import { TemplateManagerDialog } from './TemplateManagerDialog'
import type { TemplateKind } from './template-form'
import { serverTemplateServices, type TemplateServices } from './template-services'
import './templates.css'
import { categoryNameText, categoryPathText, templateNameText } from '../../i18n/library-names'

/** Templates per page of the list. */
export const templatePageSize = 10

/** Which template popup is open. */
type Editing = { templateId: string | null; kind: TemplateKind } | null

/** The picture of a template: its icon, or the preview of its 3D model. */
export function templatePicture(template: Template): string | null {
  if (template.iconpath) return template.iconpath
  if (template.icon_path) return template.icon_path
  if (template.jpg_name && template.file_path) {
    const root = template.file_path.endsWith('/') ? template.file_path : `${template.file_path}/`
    return `${root}${template.jpg_name}`
  }
  return null
}

/**
 * The template library (SPEC §2 template list): search and paging; for each template its
 * picture, classify (2D/3D), category, encoding, creation time and the projects that use it;
 * edit, copy and delete (confirmed; refused by the server while projects use it). The toolbar
 * opens a new simple or multi-level template, the category manager and the POI template file
 * window. `isCompact` draws the narrower list of the editors' Template module.
 */
export function TemplateList({
  isCompact = false,
  projectId = null,
  services = serverTemplateServices,
}: {
  isCompact?: boolean
  projectId?: string | null
  services?: TemplateServices
}) {
  const { t, i18n } = useLingui()
  const { canEdit } = usePermissions()
  const [keyword, setKeyword] = useState('')
  const [query, setQuery] = useState('')
  const [categoryFilter, setCategoryFilter] = useState<Category | null>(null)
  const loadCategories = useCallback(
    (categoryPageNo: number, pageSize: number) =>
      services.selectCategoryPage({ pageNo: categoryPageNo, pageSize }),
    [services],
  )
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<TemplatePage | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)
  const [editing, setEditing] = useState<Editing>(null)
  const [isCategoryManagerOpen, setCategoryManagerOpen] = useState(false)
  const [isBatchFileOpen, setBatchFileOpen] = useState(false)

  const load = useCallback(async () => {
    setIsLoading(true)
    setLoadError(null)
    try {
      const answer = await services.listTemplates({
        pageNo,
        pageSize: templatePageSize,
        ...(query ? { keyword: query } : {}),
        ...(categoryFilter ? { categoryId: categoryFilter.id } : {}),
      })
      setPage(answer)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [services, pageNo, query, categoryFilter])

  useEffect(() => {
    void load()
  }, [load])

  async function copy(template: Template) {
    try {
      await services.copyTemplate(template.id)
      toast.success(t`Copied.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  async function remove(template: Template) {
    if (!(await confirmDelete({ itemName: templateNameText(template) }))) return
    try {
      await services.deleteTemplate(template.id)
      toast.success(t`Deleted.`)
      // the last row of a page going leaves an empty page: step back one
      if (page && page.list.length === 1 && pageNo > 1) setPageNo(pageNo - 1)
      else await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  const templateTotal = page?.total ?? 0
  const pageCount = page ? Math.max(1, Math.ceil(page.total / templatePageSize)) : 1
  const dateFormat = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium' })
  return (
    <div
      className={['ts-template-list', isCompact && 'ts-template-list--compact']
        .filter(Boolean)
        .join(' ')}
      data-testid="template-list"
    >
      <form
        className="ts-template-list__toolbar"
        onSubmit={(event) => {
          event.preventDefault()
          setPageNo(1)
          setQuery(keyword.trim())
        }}
      >
        <TextField
          label={t`Search templates`}
          placeholder={t`Name or encoding`}
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          data-testid="template-search"
        />
        <Button type="submit">
          <Trans>Search</Trans>
        </Button>
        {!isCompact && (
          <PagedSelect<Category>
            label={<Trans>Category</Trans>}
            placeholder={t`All categories`}
            loadPage={loadCategories}
            labelOf={categoryNameText}
            value={categoryFilter}
            onChange={(category) => {
              setPageNo(1)
              setCategoryFilter(category)
            }}
            testId="template-category-filter"
          />
        )}
        {categoryFilter && (
          <Button variant="ghost" onClick={() => setCategoryFilter(null)}>
            <Trans>All categories</Trans>
          </Button>
        )}
      </form>
      {canEdit && (
        <div className="ts-template-list__actions">
          <Button
            variant="primary"
            onClick={() => setEditing({ templateId: null, kind: 'simple' })}
          >
            <Trans>New template</Trans>
          </Button>
          <Button onClick={() => setEditing({ templateId: null, kind: 'multiLevel' })}>
            <Trans>New multi-level template</Trans>
          </Button>
          <Button onClick={() => setCategoryManagerOpen(true)}>
            <Trans>Category manager</Trans>
          </Button>
          <Button onClick={() => setBatchFileOpen(true)}>
            <Trans>POI template file</Trans>
          </Button>
        </div>
      )}
      <LoadStates
        data={page}
        error={loadError === null ? null : errorText(loadError)}
        onRetry={load}
        isRetrying={isLoading}
        loadingLabel={t`Loading templates`}
        isEmpty={(loaded) => loaded.list.length === 0}
        emptyTitle={
          query ? <Trans>No templates match the search.</Trans> : <Trans>No templates yet</Trans>
        }
        emptyDescription={
          !query && canEdit ? <Trans>Create a template to make POIs from it.</Trans> : undefined
        }
      >
        {(page) => (
          <table className="ts-template-table" aria-busy={isLoading}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Template</Trans>
                </th>
                {!isCompact && (
                  <>
                    <th scope="col">
                      <Trans>Classify</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Category</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Encoding</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Created</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Used in projects</Trans>
                    </th>
                  </>
                )}
                <th scope="col">
                  <span className="ts-visually-hidden">
                    <Trans>Actions</Trans>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.list.map((template) => {
                const picture = templatePicture(template)
                const used = template.refProjectNameList ?? []
                const templateName = templateNameText(template)
                return (
                  <tr key={template.id} data-testid="template-row">
                    <th scope="row">
                      <span className="ts-template-table__name">
                        {picture ? (
                          <img src={picture} alt="" className="ts-template-table__picture" />
                        ) : (
                          <span className="ts-template-table__picture" aria-hidden="true" />
                        )}
                        {templateName}
                      </span>
                    </th>
                    {!isCompact && (
                      <>
                        <td>{template.classify}</td>
                        <td>{categoryPathText(template) || '—'}</td>
                        <td>{template.poicategory_code}</td>
                        <td>
                          {template.created_at
                            ? dateFormat.format(new Date(template.created_at))
                            : '—'}
                        </td>
                        <td>{used.length > 0 ? used.join(', ') : '—'}</td>
                      </>
                    )}
                    <td className="ts-table__actions">
                      {canEdit && (
                        <>
                          <Button
                            variant="ghost"
                            disabled={!template.can_edit}
                            title={
                              template.can_edit
                                ? undefined
                                : t`Library templates cannot be changed; copy the template to change it.`
                            }
                            onClick={() =>
                              setEditing({
                                templateId: template.id,
                                kind: template.template_type === '1' ? 'multiLevel' : 'simple',
                              })
                            }
                            aria-label={t`Edit ${templateName}`}
                          >
                            <Trans>Edit</Trans>
                          </Button>
                          {/* the editors' narrow panel edits; the library page copies and deletes */}
                          {!isCompact && (
                            <>
                              <Button
                                variant="ghost"
                                onClick={() => void copy(template)}
                                aria-label={t`Copy ${templateName}`}
                              >
                                <Trans>Copy</Trans>
                              </Button>
                              <Button
                                variant="ghost"
                                disabled={!template.can_edit}
                                onClick={() => void remove(template)}
                                aria-label={t`Delete ${templateName}`}
                              >
                                <Trans>Delete</Trans>
                              </Button>
                            </>
                          )}
                        </>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </LoadStates>
      {page && page.total > 0 && (
        <nav className="ts-template-list__pager" aria-label={t`Template pages`}>
          <span>
            <Trans>{templateTotal} templates</Trans>
          </span>
          <Button
            variant="ghost"
            onClick={() => setPageNo(pageNo - 1)}
            disabled={pageNo <= 1 || isLoading}
          >
            <Trans>Previous</Trans>
          </Button>
          <span aria-live="polite">
            {pageNo} / {pageCount}
          </span>
          <Button
            variant="ghost"
            onClick={() => setPageNo(pageNo + 1)}
            disabled={pageNo >= pageCount || isLoading}
          >
            <Trans>Next</Trans>
          </Button>
        </nav>
      )}
      <TemplateManagerDialog
        isOpen={editing !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen) setEditing(null)
        }}
        templateId={editing?.templateId ?? null}
        kind={editing?.kind ?? 'simple'}
        projectId={projectId}
        onSaved={() => void load()}
        services={services}
      />
      <CategoryManagerDialog
        isOpen={isCategoryManagerOpen}
        onOpenChange={setCategoryManagerOpen}
        services={services}
      />
      <PoiTemplateFileDialog
        isOpen={isBatchFileOpen}
        onOpenChange={setBatchFileOpen}
        services={services}
      />
    </div>
  )
}
