import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { findProjects, type Project } from '../../api/project'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { enterProject } from '../../components/project/enter-project'
import { Dialog, EmptyState, ErrorState, Spinner, TextField } from '../../ui'
import { projectTexts } from '../../i18n/library-names'

/** Props of {@link SwitchProjectDialog}. */
export interface SwitchProjectDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  currentProjectId: string | null
}

type ListState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; projects: Project[] }

/**
 * "Switch project" of the space sidebar: the user's building projects, filterable by name;
 * choosing one enters it (a new project token) and the editor reopens its scene.
 */
export function SwitchProjectDialog({
  isOpen,
  onOpenChange,
  currentProjectId,
}: SwitchProjectDialogProps) {
  const { t } = useLingui()
  const [list, setList] = useState<ListState>({ kind: 'loading' })
  const [keyword, setKeyword] = useState('')
  const [reloadCount, setReloadCount] = useState(0)
  const [enteringId, setEnteringId] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadCount is the Retry trigger
  useEffect(() => {
    if (!isOpen) return
    const controller = new AbortController()
    setList({ kind: 'loading' })
    findProjects({ kind: 'building', pageSize: 100 }, controller.signal).then(
      (page) => setList({ kind: 'ready', projects: page.list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setList({ kind: 'error', message: errorText(error) })
      },
    )
    return () => controller.abort()
  }, [isOpen, reloadCount])

  async function choose(project: Project) {
    if (enteringId) return
    setEnteringId(project.id)
    try {
      await enterProject(project)
      onOpenChange(false)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setEnteringId(null)
    }
  }

  const needle = keyword.trim().toLowerCase()
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={<Trans>Switch project</Trans>}>
      <TextField
        label={<Trans>Search by name</Trans>}
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
      />
      {list.kind === 'loading' && <Spinner label={t`Loading projects`} />}
      {list.kind === 'error' && (
        <ErrorState message={list.message} onRetry={() => setReloadCount((count) => count + 1)} />
      )}
      {list.kind === 'ready' &&
        (() => {
          const shown = list.projects.filter((project) =>
            project.name.toLowerCase().includes(needle),
          )
          if (shown.length === 0) return <EmptyState title={<Trans>No space projects</Trans>} />
          return (
            <ul className="ts-bim4-switch__list">
              {shown.map((project) => (
                <li key={project.id}>
                  <button
                    type="button"
                    className="ts-bim4-switch__item"
                    disabled={enteringId !== null}
                    aria-current={project.id === currentProjectId ? 'true' : undefined}
                    onClick={() => void choose(project)}
                  >
                    <span className="ts-bim4-switch__name">{projectTexts(project).name}</span>
                    {project.id === currentProjectId && (
                      <span className="ts-bim4-switch__badge">
                        <Trans>Open now</Trans>
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )
        })()}
    </Dialog>
  )
}
