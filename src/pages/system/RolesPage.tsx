import { Trans } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import type { Role } from '../../api/types'
import { findAllRoles } from '../../api/user'
import { errorText } from '../../components/feedback/error-text'
import { EmptyState, ErrorState, Spinner } from '../../ui'
import { RoleLabel } from './UsersPage'
import './system.css'

/** `/system/roles` (admin): the roles accounts can hold (`/role/findAll`). */
export function RolesPage() {
  const [roles, setRoles] = useState<Role[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)

  const load = useCallback(async () => {
    setIsLoading(true)
    try {
      setRoles(await findAllRoles())
      setLoadError(null)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [])

  useEffect(() => {
    void load()
  }, [load])

  return (
    <section className="ts-system-page">
      <h1 className="ts-page-title">
        <Trans>Role management</Trans>
      </h1>
      <div className="ts-system-panel">
        {loadError !== null && !roles ? (
          <ErrorState message={errorText(loadError)} onRetry={load} isRetrying={isLoading} />
        ) : !roles ? (
          <Spinner />
        ) : roles.length === 0 ? (
          <EmptyState title={<Trans>No roles found</Trans>} />
        ) : (
          <table className="ts-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Role</Trans>
                </th>
                <th scope="col">
                  <Trans>Description</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {roles.map((role) => (
                <tr key={role.id}>
                  <td>
                    <RoleLabel role={role.name} />
                  </td>
                  <td>{role.description ?? <RoleDescription role={role.name} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  )
}

/** What each built-in role may do (decisions.md "Accounts"), for roles sent without a text. */
function RoleDescription({ role }: { role: string }) {
  if (role === 'admin')
    return <Trans>Manages users, roles and announcements, and edits everything.</Trans>
  if (role === 'editor') return <Trans>Creates and edits their own projects.</Trans>
  if (role === 'guest') return <Trans>Views project cases and previews, read only.</Trans>
  return null
}
