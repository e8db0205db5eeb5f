import { Trans } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { findProjectInfo, type Project, type ProjectInfo } from '../../api/project'
import { projectTexts } from '../../i18n/library-names'
import { Dialog, ErrorState, Spinner } from '../../ui'
import { errorText } from '../feedback/error-text'
import './project.css'

/** Props of {@link ProjectInfoDialog}. */
export interface ProjectInfoDialogProps {
  /** The project to show; null closes the viewer. */
  project: Project | null
  onClose: () => void
  loadInfo?: typeof findProjectInfo
}

/** The project info viewer (SPEC §2): AppID, name, detailed address, cover and description. */
export function ProjectInfoDialog({
  project,
  onClose,
  loadInfo = findProjectInfo,
}: ProjectInfoDialogProps) {
  const [info, setInfo] = useState<ProjectInfo | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    setInfo(null)
    setError(null)
    if (!project) return
    let isCurrent = true
    loadInfo(project.id).then(
      (loaded) => isCurrent && setInfo(loaded),
      (failure: unknown) => isCurrent && setError(failure),
    )
    return () => {
      isCurrent = false
    }
  }, [project, loadInfo])

  // the list's copy shows at once; the fuller record replaces it when it arrives
  const shown = info ?? project
  const texts = shown ? projectTexts(shown) : null
  return (
    <Dialog
      isOpen={project !== null}
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={<Trans>Project info</Trans>}
      widthPx={560}
    >
      {error !== null ? (
        <ErrorState message={errorText(error)} />
      ) : !shown ? (
        <Spinner />
      ) : (
        <dl className="ts-project-info" data-testid="project-info">
          <dt>
            <Trans>AppID</Trans>
          </dt>
          <dd className="ts-project-info__id">{shown.id}</dd>
          <dt>
            <Trans>Project name</Trans>
          </dt>
          <dd>{texts?.name}</dd>
          <dt>
            <Trans>Kind</Trans>
          </dt>
          <dd>{shown.kind === 'city' ? <Trans>City</Trans> : <Trans>Space</Trans>}</dd>
          <dt>
            <Trans>Detailed address</Trans>
          </dt>
          <dd>{texts?.detailedaddress}</dd>
          {shown.area_name && (
            <>
              <dt>
                <Trans>Region</Trans>
              </dt>
              <dd>{shown.area_name}</dd>
            </>
          )}
          <dt>
            <Trans>Cover image</Trans>
          </dt>
          <dd>
            {shown.prewiewpath ? (
              <img className="ts-project-info__cover" src={shown.prewiewpath} alt={texts?.name} />
            ) : (
              <Trans>None</Trans>
            )}
          </dd>
          <dt>
            <Trans>Description</Trans>
          </dt>
          <dd className="ts-project-info__description">{texts?.description}</dd>
        </dl>
      )}
    </Dialog>
  )
}
