import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { findAllRoles } from '../../api/role'
import type { ManagedUser, Role, UserPage } from '../../api/types'
import {
  changeUserRole,
  deleteUser,
  insertUser,
  type NewUser,
  searchUsers,
  setUserDisabled,
} from '../../api/user'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { KeywordSearchForm } from '../../components/forms/KeywordSearchForm'
import { session } from '../../state/session'
import {
  Button,
  confirm,
  confirmDelete,
  FormDialog,
  LoadStates,
  PasswordField,
  Select,
  TextField,
  toast,
  type SelectOption,
  TableHead,
} from '../../ui'
import { newPasswordProblem, normaliseTel, telProblem } from '../sign/validation'
import { accessLevelName, RoleName } from './role-text'
import { UserProjectsDialog } from './UserProjectsDialog'
import './system.css'

/** Rows per page of the user list. */
const usersPageSize = 10

/** Which dialog is open: adding an account, changing one account's role, or its projects. */
type UserDialog =
  | { mode: 'add' }
  | { mode: 'role'; user: ManagedUser }
  | { mode: 'projects'; user: ManagedUser }
  | null

/**
 * `/system/users` (admin): search and page through the accounts, add one with a role, change an
 * account's role, see an account's projects, and delete one after confirming. Admins cannot
 * delete themselves or change their own role here, so the console always keeps the admin who is
 * using it.
 */
export function UsersPage() {
  const { t } = useLingui()
  const { userData } = useSnapshot(session)
  const [keyword, setKeyword] = useState('')
  const [appliedKeyword, setAppliedKeyword] = useState('')
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<UserPage | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)
  const [roles, setRoles] = useState<Role[] | null>(null)
  const [dialog, setDialog] = useState<UserDialog>(null)

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

  useEffect(() => {
    let isCurrent = true
    findAllRoles()
      .then((loaded) => isCurrent && setRoles(loaded))
      // The list still works; the dialogs say the roles are missing and offer no choice.
      .catch(() => isCurrent && setRoles([]))
    return () => {
      isCurrent = false
    }
  }, [])

  async function remove(user: ManagedUser) {
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

  async function toggleDisabled(user: ManagedUser) {
    const userName = user.name
    if (!user.disabled) {
      const isSure = await confirm({
        type: 'warning',
        title: t`Disable ${userName}?`,
        message: t`${userName} is signed out everywhere at once and cannot sign in until the account is enabled again. Projects and data stay.`,
        confirmLabel: t`Disable`,
      })
      if (!isSure) return
    }
    try {
      await setUserDisabled(user.id, !user.disabled)
      toast.success(user.disabled ? t`${userName} can sign in again.` : t`${userName} is disabled.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  const isBuiltinRole = (roleId: string) => roles?.find((role) => role.id === roleId)?.is_builtin
  const pageCount = page ? Math.max(1, Math.ceil(page.total / usersPageSize)) : 1
  return (
    <section className="ts-system-page">
      <h1 className="ts-page-title">
        <Trans>User management</Trans>
      </h1>
      <div className="ts-system-panel">
        <KeywordSearchForm
          className="ts-table-toolbar"
          formLabel={t`Search users`}
          fieldLabel={t`Search by name or phone`}
          keyword={keyword}
          onKeywordChange={setKeyword}
          onSearch={(applied) => {
            setPageNo(1)
            setAppliedKeyword(applied)
          }}
        >
          <Button
            variant="primary"
            onClick={() => setDialog({ mode: 'add' })}
            style={{ marginLeft: 'auto' }}
          >
            <Trans>Add user</Trans>
          </Button>
        </KeywordSearchForm>
        <LoadStates
          data={page}
          error={loadError === null ? null : errorText(loadError)}
          onRetry={load}
          isRetrying={isLoading}
          isEmpty={(loaded) => loaded.list.length === 0}
          emptyTitle={<Trans>No users found</Trans>}
        >
          {(page) => (
            <table className="ts-table">
              <TableHead
                columns={[
                  { key: 'name', label: <Trans>User name</Trans> },
                  { key: 'nickname', label: <Trans>Nickname</Trans> },
                  { key: 'phone', label: <Trans>Phone number</Trans> },
                  { key: 'email', label: <Trans>E-mail</Trans> },
                  { key: 'role', label: <Trans>Role</Trans> },
                  { key: 'state', label: <Trans>State</Trans> },
                ]}
                hasActions
              />
              <tbody>
                {page.list.map((user) => {
                  const userName = user.name
                  const isSelf = user.id === userData?.id
                  return (
                    <tr key={user.id}>
                      <th scope="row">{user.name}</th>
                      <td>{user.nickname}</td>
                      <td>{user.tel}</td>
                      <td>{user.email}</td>
                      <td>
                        <RoleName
                          name={user.role_name}
                          isBuiltin={
                            isBuiltinRole(user.role_id) ??
                            accessLevelName(user.role_name) !== undefined
                          }
                        />
                      </td>
                      <td data-testid="user-state">
                        {user.disabled ? <Trans>Disabled</Trans> : <Trans>Active</Trans>}
                      </td>
                      <td className="ts-table__actions">
                        <Button
                          variant="ghost"
                          onClick={() => setDialog({ mode: 'projects', user })}
                          aria-label={t`Projects of ${userName}`}
                        >
                          <Trans>Projects</Trans>
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => setDialog({ mode: 'role', user })}
                          disabled={isSelf}
                          aria-label={t`Change the role of ${userName}`}
                        >
                          <Trans>Change role</Trans>
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => void toggleDisabled(user)}
                          disabled={isSelf}
                          aria-label={
                            user.disabled ? t`Enable ${userName}` : t`Disable ${userName}`
                          }
                        >
                          {user.disabled ? <Trans>Enable</Trans> : <Trans>Disable</Trans>}
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => void remove(user)}
                          disabled={isSelf}
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
        </LoadStates>
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
      {dialog?.mode === 'add' && (
        <AddUserDialog
          roles={roles}
          onClose={() => setDialog(null)}
          onAdded={() => {
            setDialog(null)
            void load()
          }}
        />
      )}
      {dialog?.mode === 'projects' && (
        <UserProjectsDialog user={dialog.user} onClose={() => setDialog(null)} />
      )}
      {dialog?.mode === 'role' && (
        <ChangeRoleDialog
          key={dialog.user.id}
          user={dialog.user}
          roles={roles}
          onClose={() => setDialog(null)}
          onChanged={() => {
            setDialog(null)
            void load()
          }}
        />
      )}
    </section>
  )
}

/** The roles an account may be given: every role but the guest one, which only guests hold. */
function useRoleOptions(roles: readonly Role[] | null): SelectOption[] {
  const { i18n } = useLingui()
  return (roles ?? [])
    .filter((role) => role.access_level !== 'guest')
    .map((role) => {
      const builtinName = role.is_builtin ? accessLevelName(role.name) : undefined
      return { value: role.id, label: builtinName ? i18n._(builtinName) : role.name }
    })
}

/** The id of the built-in editor role, where every new account starts. */
function editorRoleId(roles: readonly Role[] | null): string | null {
  return roles?.find((role) => role.is_builtin && role.name === 'editor')?.id ?? null
}

function AddUserDialog({
  roles,
  onClose,
  onAdded,
}: {
  roles: readonly Role[] | null
  onClose: () => void
  onAdded: () => void
}) {
  const { i18n, t } = useLingui()
  const roleOptions = useRoleOptions(roles)
  const [user, setUser] = useState<Omit<NewUser, 'role'>>({ name: '', tel: '', password: '' })
  const [chosenRoleId, setChosenRoleId] = useState<string | null>(null)
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const roleId = chosenRoleId ?? editorRoleId(roles)

  const nameError = !user.name.trim()
    ? t`Please enter your user name.`
    : /\s/.test(user.name.trim())
      ? t`The user name may not contain spaces.`
      : undefined
  const telDescriptor = user.tel.trim() ? telProblem(user.tel) : null
  const passwordDescriptor = newPasswordProblem(user.password)
  const roleError = roleId ? undefined : t`Please choose a role.`
  const shown = (message: string | undefined) => (hasTriedSubmit ? message : undefined)

  async function submit() {
    setHasTriedSubmit(true)
    if (nameError || telDescriptor || passwordDescriptor || !roleId) return
    try {
      await insertUser({
        name: user.name.trim(),
        tel: user.tel.trim() ? normaliseTel(user.tel) : '',
        password: user.password,
        role: roleId,
      })
      toast.success(t`Added successfully.`)
      onAdded()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={<Trans>Add user</Trans>}
      onSubmit={submit}
      submitLabel={<Trans>Save</Trans>}
    >
      <TextField
        label={t`User name`}
        value={user.name}
        onChange={(event) => setUser({ ...user, name: event.target.value })}
        error={shown(nameError)}
        maxLength={64}
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
        value={roleId}
        onValueChange={setChosenRoleId}
        options={roleOptions}
        placeholder={roles ? t`No roles available` : t`Loading…`}
        error={shown(roleError)}
        disabled={roleOptions.length === 0}
        required
      />
    </FormDialog>
  )
}

function ChangeRoleDialog({
  user,
  roles,
  onClose,
  onChanged,
}: {
  user: ManagedUser
  roles: readonly Role[] | null
  onClose: () => void
  onChanged: () => void
}) {
  const { t } = useLingui()
  const roleOptions = useRoleOptions(roles)
  const [roleId, setRoleId] = useState(user.role_id)
  const userName = user.name

  async function submit() {
    if (roleId === user.role_id) {
      onClose()
      return
    }
    try {
      await changeUserRole(user.id, roleId)
      toast.success(t`Modified successfully.`)
      onChanged()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={<Trans>Change the role of {userName}</Trans>}
      onSubmit={submit}
      submitLabel={<Trans>Modify</Trans>}
    >
      <Select
        label={t`Role`}
        value={roleId}
        onValueChange={setRoleId}
        options={roleOptions}
        placeholder={roles ? t`No roles available` : t`Loading…`}
        disabled={roleOptions.length === 0}
        required
      />
    </FormDialog>
  )
}
