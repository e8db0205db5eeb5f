import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { findUserProjects, type ProjectPage } from '../../api/project'
import type { ManagedUser } from '../../api/types'
import { errorText } from '../../components/feedback/error-text'
import { Dialog, LoadStates, TableHead } from '../../ui'

/** Most projects the dialog lists (the newest changed first). */
const listedProjects = 50

/**
 * An admin's view of one account's projects (`findProjectAllByUser`, issue 21 item 8): name,
 * kind, address and last change, newest first, with the total when there are more.
 */
export function UserProjectsDialog({
  user,
  onClose,
  load = findUserProjects,
}: {
  user: ManagedUser
  onClose: () => void
  load?: typeof findUserProjects
}) {
  const { t, i18n } = useLingui()
  const [page, setPage] = useState<ProjectPage | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [attempt, setAttempt] = useState(0)

  // `attempt` is the retry button's "load again" signal
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    const controller = new AbortController()
    setError(null)
    load(user.id, { pageSize: listedProjects }, controller.signal).then(setPage, (failure) => {
      if (!controller.signal.aborted) setError(failure)
    })
    return () => controller.abort()
  }, [load, user.id, attempt])

  const userName = user.name
  return (
    <Dialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={t`Projects of ${userName}`}
      widthPx={720}
    >
      <LoadStates
        data={page}
        error={error === null ? null : errorText(error)}
        onRetry={() => setAttempt((count) => count + 1)}
        isEmpty={(loaded) => loaded.list.length === 0}
        emptyTitle={<Trans>This user has no projects.</Trans>}
      >
        {(loaded) => (
          <>
            <table className="ts-table" data-testid="user-projects">
              <TableHead
                columns={[
                  { key: 'name', label: <Trans>Project name</Trans> },
                  { key: 'kind', label: <Trans>Kind</Trans> },
                  { key: 'address', label: <Trans>Address</Trans> },
                  { key: 'updated', label: <Trans>Last changed</Trans> },
                ]}
              />
              <tbody>
                {loaded.list.map((project) => (
                  <tr key={project.id}>
                    <th scope="row">{project.name}</th>
                    <td>{project.kind === 'city' ? <Trans>City</Trans> : <Trans>Space</Trans>}</td>
                    <td>{project.detailedaddress}</td>
                    <td>{i18n.date(project.updated_at, { dateStyle: 'medium' })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {loaded.total > loaded.list.length && (
              <p>
                <Trans>
                  The {listedProjects} most recently changed of {loaded.total} projects are shown.
                </Trans>
              </p>
            )}
          </>
        )}
      </LoadStates>
    </Dialog>
  )
}
