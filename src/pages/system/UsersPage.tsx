import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { User, UserPage } from '../../api/types'
import { deleteUser, insertUser, type NewUser, searchUsers } from '../../api/user'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { session } from '../../state/session'
import {
  Button,
  confirmDelete,
  EmptyState,
  ErrorState,
  FormDialog,
  PasswordField,
  Select,
  Spinner,
  TextField,
  toast,
} from '../../ui'
import { newPasswordProblem, telProblem } from '../sign/validation'
import './system.css'

/** Rows per page of the user list. */
const usersPageSize = 10

/** `/system/users` (admin): search, page through, add and delete accounts. */
export function UsersPage() {
  const { t } = useLingui()
  const { userData } = useSnapshot(session)
  const [keyword, setKeyword] = useState('')
  const [appliedKeyword, setAppliedKeyword] = useState('')
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<UserPage | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)
  const [isAddOpen, setIsAddOpen] = useState(false)

  const load = useCallback(async () => {
    setIsLoading(true)
    try {
      setPage(await searchUsers(pageNo, usersPageSize, appliedKeyword))
      setLoadError(null)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [pageNo, appliedKeyword])

  useEffect(() => {
    void load()
  }, [load])

  async function remove(user: User) {
    if (!(await confirmDelete({ itemName: user.name }))) return
    try {
      await deleteUser(user.id)
      toast.success(t`Deleted.`)
      // Deleting the last row of a page steps back one page instead of showing an empty one.
      if (page && page.list.length === 1 && pageNo > 1) setPageNo(pageNo - 1)
      else await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  const pageCount = page ? Math.max(1, Math.ceil(page.total / usersPageSize)) : 1
  return (
    <section className="ts-system-page">
      <h1 className="ts-page-title">
        <Trans>User management</Trans>
      </h1>
      <div className="ts-system-panel">
        <form
          className="ts-table-toolbar"
          aria-label={t`Search users`}
          onSubmit={(event) => {
            event.preventDefault()
            setPageNo(1)
            setAppliedKeyword(keyword.trim())
          }}
        >
          <TextField
            label={t`Search by name or phone`}
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
            type="search"
          />
          <Button type="submit">
            <Trans>Search</Trans>
          </Button>
          <Button
            variant="primary"
            onClick={() => setIsAddOpen(true)}
            style={{ marginLeft: 'auto' }}
          >
            <Trans>Add user</Trans>
          </Button>
        </form>
        {loadError !== null && !page ? (
          <ErrorState message={errorText(loadError)} onRetry={load} isRetrying={isLoading} />
        ) : !page ? (
          <Spinner />
        ) : page.list.length === 0 ? (
          <EmptyState title={<Trans>No users found</Trans>} />
        ) : (
          <table className="ts-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>User name</Trans>
                </th>
                <th scope="col">
                  <Trans>Nickname</Trans>
                </th>
                <th scope="col">
                  <Trans>Phone number</Trans>
                </th>
                <th scope="col">
                  <Trans>E-mail</Trans>
                </th>
                <th scope="col">
                  <Trans>Role</Trans>
                </th>
                <th scope="col">
                  <span className="ts-visually-hidden">
                    <Trans>Actions</Trans>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.list.map((user) => {
                const userName = user.name
                return (
                  <tr key={user.id}>
                    <td>{user.name}</td>
                    <td>{user.nickname}</td>
                    <td>{user.tel}</td>
                    <td>{user.email}</td>
                    <td>
                      <RoleLabel role={user.role} />
                    </td>
                    <td>
                      <Button
                        variant="ghost"
                        onClick={() => void remove(user)}
                        disabled={user.id === userData?.id}
                        aria-label={t`Delete ${userName}`}
                      >
                        <Trans>Delete</Trans>
                      </Button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
        {page && page.total > usersPageSize && (
          <nav className="ts-pagination" aria-label={t`Pages`}>
            <Button onClick={() => setPageNo(pageNo - 1)} disabled={pageNo <= 1 || isLoading}>
              <Trans>Previous</Trans>
            </Button>
            <span>
              <Trans>
                Page {pageNo} of {pageCount}
              </Trans>
            </span>
            <Button
              onClick={() => setPageNo(pageNo + 1)}
              disabled={pageNo >= pageCount || isLoading}
            >
              <Trans>Next</Trans>
            </Button>
          </nav>
        )}
      </div>
      <AddUserDialog
        isOpen={isAddOpen}
        onOpenChange={setIsAddOpen}
        onAdded={() => {
          setIsAddOpen(false)
          void load()
        }}
      />
    </section>
  )
}

/** A role's translated name; unknown roles show as sent. */
export function RoleLabel({ role }: { role: string }) {
  if (role === 'admin') return <Trans>Administrator</Trans>
  if (role === 'editor') return <Trans>Editor</Trans>
  if (role === 'guest') return <Trans>Guest</Trans>
  return <>{role}</>
}

function AddUserDialog({
  isOpen,
  onOpenChange,
  onAdded,
}: {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  onAdded: () => void
}) {
  const { i18n, t } = useLingui()
  const emptyUser: NewUser = { name: '', tel: '', password: '', role: 'editor' }
  const [user, setUser] = useState<NewUser>(emptyUser)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)

  const nameError = !user.name.trim() ? t`Please enter your user name.` : undefined
  const telDescriptor = user.tel.trim() ? telProblem(user.tel) : null
  const passwordDescriptor = newPasswordProblem(user.password)
  const shown = (message: string | undefined) => (hasTriedSubmit ? message : undefined)

  async function submit() {
    setHasTriedSubmit(true)
    if (nameError || telDescriptor || passwordDescriptor) return
    try {
      await insertUser({ ...user, name: user.name.trim(), tel: user.tel.trim() })
      toast.success(t`Added successfully.`)
      setUser(emptyUser)
      setHasTriedSubmit(false)
      onAdded()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={<Trans>Add user</Trans>}
      onSubmit={submit}
      submitLabel={<Trans>Save</Trans>}
    >
      <TextField
        label={t`User name`}
        value={user.name}
        onChange={(event) => setUser({ ...user, name: event.target.value })}
        error={shown(nameError)}
        required
      />
      <TextField
        label={t`Phone number`}
        type="tel"
        value={user.tel}
        onChange={(event) => setUser({ ...user, tel: event.target.value })}
        error={shown(telDescriptor ? i18n._(telDescriptor) : undefined)}
      />
      <PasswordField
        label={t`Password`}
        autoComplete="new-password"
        value={user.password}
        onChange={(event) => setUser({ ...user, password: event.target.value })}
        error={shown(passwordDescriptor ? i18n._(passwordDescriptor) : undefined)}
        hint={t`8 to 128 characters.`}
        required
      />
      <Select
        label={t`Role`}
        value={user.role}
        onValueChange={(role) => setUser({ ...user, role })}
        options={[
          { value: 'editor', label: t`Editor` },
          { value: 'admin', label: t`Administrator` },
        ]}
      />
    </FormDialog>
  )
}
