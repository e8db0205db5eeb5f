import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { type CaseDetail, type CaseMenu, findCaseDetails, findCaseMenus } from '../../api/cases'
import type { Project } from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { copyProjectWithConfirmation } from '../../components/project/confirm-copy'
import { ProjectCard } from '../../components/project/ProjectCard'
import { ProjectInfoDialog } from '../../components/project/ProjectInfoDialog'
import { enterProject } from '../../components/project/enter-project'
import { usePermissions } from '../../components/use-permissions'
import { LoadStates, toast } from '../../ui'
import { CaseCuration } from './CaseCuration'
import { type CaseGallery, projectOfCase } from './case-project'
import '../project-manage/project-manage.css'

export type { CaseGallery }

/** Reads the gallery from the server (`/case` find calls). */
export async function loadCaseGallery(signal?: AbortSignal): Promise<CaseGallery> {
  const [menus, details] = await Promise.all([findCaseMenus(signal), findCaseDetails(signal)])
  return { menus, details }
}

/** The gallery's sections: each category with its cases, then the uncategorised ones. */
export function gallerySections(
  gallery: CaseGallery,
): { menu: CaseMenu | null; details: CaseDetail[] }[] {
  const sections = gallery.menus.map((menu) => ({
    menu: menu as CaseMenu | null,
    details: gallery.details.filter((detail) => detail.menu_id === menu.id),
  }))
  const known = new Set(gallery.menus.map((menu) => menu.id))
  const rest = gallery.details.filter(
    (detail) => detail.menu_id === null || !known.has(detail.menu_id),
  )
  return [
    ...sections.filter((section) => section.details.length > 0),
    { menu: null, details: rest },
  ].filter((section) => section.details.length > 0)
}

/**
 * `/projectCase`, the project case gallery (SPEC §2): the cases admins curate (`/case` menu and
 * detail), by category in their order, which guests may open too. Editors can copy one into
 * their own projects; admins also get the curation controls under the gallery.
 */
export function ProjectCasePage(props: Partial<PageProps> & { load?: typeof loadCaseGallery }) {
  const load = props.load ?? loadCaseGallery
  const { t, i18n } = useLingui()
  const { canEdit, isAdmin } = usePermissions()
  const [gallery, setGallery] = useState<CaseGallery | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [infoProject, setInfoProject] = useState<Project | null>(null)
  const [busy, setBusy] = useState<{ projectId: string; action: 'enter' | 'copy' } | null>(null)

  const reload = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setGallery(await load(signal))
        setError(null)
      } catch (failure) {
        if (!signal?.aborted) setError(failure)
      }
    },
    [load],
  )
  useEffect(() => {
    const controller = new AbortController()
    void reload(controller.signal)
    return () => controller.abort()
  }, [reload])

  async function run(project: Project, action: 'enter' | 'copy', work: () => Promise<void>) {
    if (busy) return
    setBusy({ projectId: project.id, action })
    try {
      await work()
    } catch (failure) {
      showErrorToast(failure)
    } finally {
      setBusy(null)
    }
  }

  const hasMenus = (gallery?.menus.length ?? 0) > 0
  return (
    <div className="ts-project-manage">
      <h1 className="ts-page-title">
        <Trans>Project cases</Trans>
      </h1>
      <section className="ts-project-list" data-testid="project-cases">
        <LoadStates
          data={gallery}
          error={error === null ? null : errorText(error)}
          onRetry={() => void reload()}
          isEmpty={(loaded) => loaded.details.length === 0}
          emptyTitle={<Trans>No project cases yet</Trans>}
        >
          {(loaded) =>
            gallerySections(loaded).map((section) => (
              <section key={section.menu?.id ?? 'other'} aria-label={section.menu?.name}>
                {hasMenus && (
                  <h2 className="ts-project-list__title">
                    {section.menu ? section.menu.name : <Trans>Other cases</Trans>}
                  </h2>
                )}
                <ul className="ts-project-list__grid">
                  {section.details.map((detail) => (
                    <ProjectCard
                      key={detail.id}
                      project={projectOfCase(detail)}
                      busyAction={busy?.projectId === detail.project_id ? busy.action : null}
                      actions={{
                        onEnter: (chosen) => void run(chosen, 'enter', () => enterProject(chosen)),
                        onInfo: () => setInfoProject(detail.project),
                        ...(canEdit
                          ? {
                              onCopy: () =>
                                void run(detail.project, 'copy', async () => {
                                  const copy = await copyProjectWithConfirmation(
                                    detail.project,
                                    i18n.locale,
                                  )
                                  if (!copy) return
                                  const copyName = copy.name
                                  toast.success(t`Copied to your projects as “${copyName}”.`)
                                }),
                            }
                          : {}),
                      }}
                    />
                  ))}
                </ul>
              </section>
            ))
          }
        </LoadStates>
      </section>
      {isAdmin && gallery && <CaseCuration gallery={gallery} onChanged={() => reload()} />}
      <ProjectInfoDialog project={infoProject} onClose={() => setInfoProject(null)} />
    </div>
  )
}
