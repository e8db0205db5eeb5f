import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react'
import {
  findProjects,
  type Project,
  type ProjectKind,
  type ProjectPage,
  searchProjects,
} from '../../api/project'
import { Button, LoadStates, TextField } from '../../ui'
import { errorText } from '../feedback/error-text'
import { KeywordSearchForm } from '../forms/KeywordSearchForm'
import { ProjectCard, type ProjectCardActions } from './ProjectCard'
import './project.css'

/** Projects per page of a list. */
export const projectListPageSize = 12

/** Props of {@link ProjectListSection}. */
export interface ProjectListSectionProps {
  kind: ProjectKind
  title: ReactNode
  /** Shows the Create button when given. */
  onCreate?: () => void
  actions: ProjectCardActions
  /** Bumped by the page after a change to this list, to load it again. */
  revision: number
  busy?: { projectId: string; action: 'enter' | 'copy' | 'delete' } | null
  load?: typeof findProjects
  search?: typeof searchProjects
}

/**
 * One list of the project home (SPEC §2): a kind's projects, their total count and Create, and
 * a search by name or address (`searchProject`).
 */
export function ProjectListSection({
  kind,
  title,
  onCreate,
  actions,
  revision,
  busy,
  load = findProjects,
  search = searchProjects,
}: ProjectListSectionProps) {
  const { t } = useLingui()
  const headingId = useId()
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<ProjectPage | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(true)
  const [keyword, setKeyword] = useState('')
  const [appliedKeyword, setAppliedKeyword] = useState('')

  const reload = useCallback(
    async (signal?: AbortSignal) => {
      setIsLoading(true)
      try {
        const query = { kind, pageNo, pageSize: projectListPageSize }
        const loaded =
          appliedKeyword === ''
            ? await load(query, signal)
            : await search({ ...query, keyword: appliedKeyword }, signal)
        // a delete can leave the last page empty: step back to a page that has projects
        if (loaded.list.length === 0 && pageNo > 1) {
          setPageNo(Math.max(1, Math.ceil(loaded.total / projectListPageSize)))
          return
        }
        setPage(loaded)
        setError(null)
      } catch (failure) {
        if (!signal?.aborted) setError(failure)
      } finally {
        if (!signal?.aborted) setIsLoading(false)
      }
    },
    [kind, pageNo, load, search, appliedKeyword],
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: revision is the page's "load again" signal
  useEffect(() => {
    const controller = new AbortController()
    void reload(controller.signal)
    return () => controller.abort()
  }, [reload, revision])

  const total = page?.total ?? 0
  const pageCount = Math.max(1, Math.ceil(total / projectListPageSize))
  const busyFor = (project: Project) => (busy?.projectId === project.id ? busy.action : null)
  return (
    <section
      className="ts-project-list"
      aria-labelledby={headingId}
      data-testid={`project-list-${kind}`}
    >
      <header className="ts-project-list__header">
        <h2 id={headingId} className="ts-project-list__title">
          {title}
        </h2>
        <span className="ts-project-list__count" data-testid={`project-count-${kind}`}>
          {page ? <Trans>Total: {total}</Trans> : null}
        </span>
        {onCreate && (
          <Button variant="primary" onClick={onCreate} data-testid={`project-create-${kind}`}>
            <Trans>Create</Trans>
          </Button>
        )}
      </header>
      <KeywordSearchForm
        className="ts-project-list__search"
        formLabel={t`Search projects`}
        fieldLabel={t`Search by name or address`}
        keyword={keyword}
        onKeywordChange={setKeyword}
        onSearch={(applied) => {
          setPageNo(1)
          setAppliedKeyword(applied)
        }}
        inputTestId={`project-search-${kind}`}
      />
      <LoadStates
        data={page}
        error={error === null ? null : errorText(error)}
        onRetry={() => void reload()}
        isRetrying={isLoading}
        isEmpty={(loaded) => loaded.list.length === 0}
        emptyTitle={
          appliedKeyword === '' ? (
            <Trans>No projects yet</Trans>
          ) : (
            <Trans>No project matches “{appliedKeyword}”</Trans>
          )
        }
        emptyDescription={
          onCreate && appliedKeyword === '' ? <Trans>Create a project to start.</Trans> : undefined
        }
        emptyAction={
          onCreate &&
          appliedKeyword === '' && (
            <Button variant="primary" onClick={onCreate}>
              <Trans>Create</Trans>
            </Button>
          )
        }
      >
        {(page) => (
          <>
            <ul className="ts-project-list__grid" aria-busy={isLoading}>
              {page.list.map((project) => (
                <ProjectCard
                  key={project.id}
                  project={project}
                  actions={actions}
                  busyAction={busyFor(project)}
                />
              ))}
            </ul>
            {pageCount > 1 && (
              <nav className="ts-project-list__pager" aria-label={t`Pages`}>
                <Button disabled={pageNo <= 1} onClick={() => setPageNo(pageNo - 1)}>
                  <Trans>Previous</Trans>
                </Button>
                <span>
                  <Trans>
                    Page {pageNo} of {pageCount}
                  </Trans>
                </span>
                <Button disabled={pageNo >= pageCount} onClick={() => setPageNo(pageNo + 1)}>
                  <Trans>Next</Trans>
                </Button>
              </nav>
            )}
          </>
        )}
      </LoadStates>
    </section>
  )
}
