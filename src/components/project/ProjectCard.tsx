import { Trans, useLingui } from '@lingui/react/macro'
import type { Project } from '../../api/project'
import { projectTexts } from '../../i18n/library-names'
import { Button } from '../../ui'
import { useProjectPermissions } from './project-permissions'
import './project.css'

/**
 * What a card offers; absent actions are not shown, nor those the caller may not use on this
 * project (its `permissions`: a guest sees no edit, copy or delete on a case).
 */
export interface ProjectCardActions {
  onEnter: (project: Project) => void
  onInfo: (project: Project) => void
  onEdit?: (project: Project) => void
  onCopy?: (project: Project) => void
  onDelete?: (project: Project) => void
  /** Opens the order dialog (points, the offline package; issue 20). */
  onOrder?: (project: Project) => void
}

/** One project of a list: its cover, name and address, and enter / info / edit / copy / delete. */
export function ProjectCard({
  project,
  actions,
  busyAction,
}: {
  project: Project
  actions: ProjectCardActions
  /** Which action of this card is running, to show it busy. */
  busyAction?: 'enter' | 'copy' | 'delete' | null
}) {
  const { t } = useLingui()
  const permissions = useProjectPermissions(project)
  const onEdit = permissions.canEdit ? actions.onEdit : undefined
  const onCopy = permissions.canCopy ? actions.onCopy : undefined
  const onDelete = permissions.canDelete ? actions.onDelete : undefined
  // only who may change a project orders for it (the server's rule for /orderManage)
  const onOrder = permissions.canEdit ? actions.onOrder : undefined
  const texts = projectTexts(project)
  const name = texts.name
  return (
    <li className="ts-project-card" data-testid="project-card" data-project-id={project.id}>
      <button
        type="button"
        className="ts-project-card__cover"
        onClick={() => actions.onEnter(project)}
        aria-label={t`Enter ${name}`}
      >
        {project.prewiewpath_thumb ? (
          <img src={project.prewiewpath_thumb} alt="" loading="lazy" />
        ) : (
          <span className="ts-project-card__no-cover" aria-hidden="true" />
        )}
      </button>
      <div className="ts-project-card__body">
        <h3 className="ts-project-card__name" title={name}>
          {name}
        </h3>
        <p className="ts-project-card__address" title={texts.detailedaddress}>
          {texts.detailedaddress}
        </p>
      </div>
      <div className="ts-project-card__actions">
        <Button
          variant="primary"
          onClick={() => actions.onEnter(project)}
          isBusy={busyAction === 'enter'}
          aria-label={t`Enter ${name}`}
        >
          <Trans>Enter</Trans>
        </Button>
        <Button
          variant="ghost"
          onClick={() => actions.onInfo(project)}
          aria-label={t`Info of ${name}`}
        >
          <Trans>Info</Trans>
        </Button>
        {onEdit && (
          <Button variant="ghost" onClick={() => onEdit(project)} aria-label={t`Edit ${name}`}>
            <Trans>Edit</Trans>
          </Button>
        )}
        {onCopy && (
          <Button
            variant="ghost"
            onClick={() => onCopy(project)}
            isBusy={busyAction === 'copy'}
            aria-label={t`Copy ${name}`}
          >
            <Trans>Copy</Trans>
          </Button>
        )}
        {onOrder && (
          <Button
            variant="ghost"
            onClick={() => onOrder(project)}
            aria-label={t`Order for ${name}`}
          >
            <Trans>Order</Trans>
          </Button>
        )}
        {onDelete && (
          <Button
            variant="ghost"
            onClick={() => onDelete(project)}
            isBusy={busyAction === 'delete'}
            aria-label={t`Delete ${name}`}
          >
            <Trans>Delete</Trans>
          </Button>
        )}
      </div>
    </li>
  )
}
