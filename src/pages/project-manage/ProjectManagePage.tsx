import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import type { PageProps } from '../../app/page-props'
import { deleteProject, findProjectOne, type Project, type ProjectKind } from '../../api/project'
import { showErrorToast } from '../../components/feedback/error-text'
import { copyProjectWithConfirmation } from '../../components/project/confirm-copy'
import { ProjectFormDialog } from '../../components/project/ProjectFormDialog'
import { ProjectInfoDialog } from '../../components/project/ProjectInfoDialog'
import { ProjectListSection } from '../../components/project/ProjectListSection'
import type { ProjectCardActions } from '../../components/project/ProjectCard'
import { enterProject } from '../../components/project/enter-project'
import type { ProjectFormMode } from '../../components/project/project-form'
import { usePermissions } from '../../components/use-permissions'
import { OfflinePackageDialog } from '../orders/OfflinePackagePanel'
import { OrderDialog } from '../orders/OrderDialog'
import { closeProject, currentProject } from '../../state/project'
import { confirmDelete, toast } from '../../ui'
import './project-manage.css'

type FormState = { mode: ProjectFormMode; kind: ProjectKind; project: Project | null } | null
type BusyState = { projectId: string; action: 'enter' | 'copy' | 'delete' } | null

/**
 * `/projectManage/bim`, the project home (SPEC §2): one list per kind (city, space), each with
 * its total and a Create button; each project can be entered, viewed, edited, copied and deleted.
 * Guests see the lists read-only.
 */
export function ProjectManagePage({ search = '' }: Partial<PageProps>) {
  const { t, i18n } = useLingui()
  const { canEdit } = usePermissions()
  const [form, setForm] = useState<FormState>(null)
  const [infoProject, setInfoProject] = useState<Project | null>(null)
  const [revisions, setRevisions] = useState<Record<ProjectKind, number>>({ city: 0, building: 0 })
  const [busy, setBusy] = useState<BusyState>(null)
  // the order dialog, and the offline package its trial's "Direct download" opens
  const [ordering, setOrdering] = useState<{ project: Project; isDownload: boolean } | null>(null)

  // the left menu's City and Space entries open this page with ?kind=city or ?kind=space
  const wantedKind = new URLSearchParams(search).get('kind')
  useEffect(() => {
    const kind = wantedKind === 'space' ? 'building' : wantedKind
    if (kind !== 'city' && kind !== 'building') return
    document
      .querySelector(`[data-testid="project-list-${kind}"]`)
      ?.scrollIntoView?.({ block: 'start', behavior: 'smooth' })
  }, [wantedKind])

  const reloadList = (kind: ProjectKind) =>
    setRevisions((current) => ({ ...current, [kind]: current[kind] + 1 }))

  async function run(
    project: Project,
    action: 'enter' | 'copy' | 'delete',
    work: () => Promise<void>,
  ) {
    if (busy) return
    setBusy({ projectId: project.id, action })
    try {
      await work()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusy(null)
    }
  }

  const actions: ProjectCardActions = {
    onEnter: (project) => void run(project, 'enter', () => enterProject(project)),
    onInfo: setInfoProject,
    ...(canEdit
      ? {
          // the form starts from the project as the server has it now, not the list's copy
          // (changed in another tab or by an admin since the list was read)
          onEdit: (project: Project) =>
            void findProjectOne(project.id).then(
              (current) => setForm({ mode: 'edit', kind: current.kind, project: current }),
              showErrorToast,
            ),
          onOrder: (project: Project) => setOrdering({ project, isDownload: false }),
          onCopy: (project: Project) =>
            void run(project, 'copy', async () => {
              const copy = await copyProjectWithConfirmation(project, i18n.locale)
              if (!copy) return
              const copyName = copy.name
              toast.success(t`Copied as “${copyName}”.`)
              reloadList(project.kind)
            }),
          onDelete: async (project: Project) => {
            if (!(await confirmDelete({ itemName: project.name }))) return
            await run(project, 'delete', async () => {
              await deleteProject(project.id)
              if (currentProject.projectId === project.id) closeProject()
              toast.success(t`Deleted.`)
              reloadList(project.kind)
            })
          },
        }
      : {}),
  }

  const create = (kind: ProjectKind) =>
    canEdit ? () => setForm({ mode: 'create', kind, project: null }) : undefined
  return (
    <div className="ts-project-manage">
      <h1 className="ts-page-title">
        <Trans>Project list</Trans>
      </h1>
      <ProjectListSection
        kind="city"
        title={<Trans>City projects</Trans>}
        onCreate={create('city')}
        actions={actions}
        revision={revisions.city}
        busy={busy}
      />
      <ProjectListSection
        kind="building"
        title={<Trans>Space projects</Trans>}
        onCreate={create('building')}
        actions={actions}
        revision={revisions.building}
        busy={busy}
      />
      <ProjectFormDialog
        isOpen={form !== null}
        onOpenChange={(isOpen) => !isOpen && setForm(null)}
        mode={form?.mode ?? 'create'}
        kind={form?.kind ?? 'city'}
        project={form?.project ?? null}
        onSaved={(saved) => reloadList(saved.kind)}
      />
      <ProjectInfoDialog project={infoProject} onClose={() => setInfoProject(null)} />
      {ordering &&
        (ordering.isDownload ? (
          <OfflinePackageDialog
            projectId={ordering.project.id}
            projectName={ordering.project.name}
            onClose={() => setOrdering(null)}
          />
        ) : (
          <OrderDialog
            projectId={ordering.project.id}
            projectName={ordering.project.name}
            onClose={() => setOrdering(null)}
            onDirectDownload={() => setOrdering({ project: ordering.project, isDownload: true })}
          />
        ))}
    </div>
  )
}
