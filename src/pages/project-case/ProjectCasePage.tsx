import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { findProjectCases, type Project } from '../../api/project'
import type { PageProps } from '../../app/page-props'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { copyProjectWithConfirmation } from '../../components/project/confirm-copy'
import { ProjectCard } from '../../components/project/ProjectCard'
import { ProjectInfoDialog } from '../../components/project/ProjectInfoDialog'
import { enterProject } from '../../components/project/enter-project'
import { usePermissions } from '../../components/use-permissions'
import { LoadStates, toast } from '../../ui'
import '../project-manage/project-manage.css'

/**
 * `/projectCase`, the project case gallery (SPEC §2): the official examples, one city and one
 * building scene, which guests may open too. Editors can copy one into their own projects.
 */
export function ProjectCasePage(props: Partial<PageProps> & { load?: typeof findProjectCases }) {
  const load = props.load ?? findProjectCases
  const { t, i18n } = useLingui()
  const { canEdit } = usePermissions()
  const [cases, setCases] = useState<Project[] | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [infoProject, setInfoProject] = useState<Project | null>(null)
  const [busy, setBusy] = useState<{ projectId: string; action: 'enter' | 'copy' } | null>(null)

  const reload = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setCases(await load(signal))
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

  return (
    <div className="ts-project-manage">
      <h1 className="ts-page-title">
        <Trans>Project cases</Trans>
      </h1>
      <section className="ts-project-list" data-testid="project-cases">
        <LoadStates
          data={cases}
          error={error === null ? null : errorText(error)}
          onRetry={() => void reload()}
          isEmpty={(loaded) => loaded.length === 0}
          emptyTitle={<Trans>No project cases yet</Trans>}
        >
          {(cases) => (
            <ul className="ts-project-list__grid">
              {cases.map((project) => (
                <ProjectCard
                  key={project.id}
                  project={project}
                  busyAction={busy?.projectId === project.id ? busy.action : null}
                  actions={{
                    onEnter: (chosen) => void run(chosen, 'enter', () => enterProject(chosen)),
                    onInfo: setInfoProject,
                    ...(canEdit
                      ? {
                          onCopy: (chosen: Project) =>
                            void run(chosen, 'copy', async () => {
                              const copy = await copyProjectWithConfirmation(chosen, i18n.locale)
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
          )}
        </LoadStates>
      </section>
      <ProjectInfoDialog project={infoProject} onClose={() => setInfoProject(null)} />
    </div>
  )
}
