import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { addRole, deleteRole, editRole, findAllRoles, findRole, searchRoles } from '../../api/role'
import type { Role } from '../../api/types'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { KeywordSearchForm } from '../../components/forms/KeywordSearchForm'
import { builtinRoleMenuKeys } from '../../../contract/role'
import {
  Button,
  confirmDelete,
  FormDialog,
  LoadStates,
  Select,
  TextArea,
  TextField,
  toast,
  TableHead,
} from '../../ui'
import { MenuKeyPicker } from './MenuKeyPicker'
import { AccessLevelLabel, accessLevelName, BuiltinRoleDescription } from './role-text'
import './system.css'

/** Longest role name and description the server takes (contract/role.ts). */
const roleNameMaxLength = 64
const roleDescriptionMaxLength = 500

/** Which dialog is open: adding, or editing one role. */
type RoleDialog = { mode: 'add' } | { mode: 'edit'; role: Role } | null

/**
 * `/system/roles` (admin): the roles accounts hold. A role sets the access level the server
 * enforces and the menu items its holders see. Built-in roles keep their name and level and
 * cannot be deleted; a custom role can go once nobody holds it. The list can be searched by
 * name or description (`role/search`), and the edit form opens the role as the server has it
 * now (`role/findOne`), not as the list showed it.
 */
export function RolesPage() {
  const { i18n, t } = useLingui()
  const [roles, setRoles] = useState<Role[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)
  const [dialog, setDialog] = useState<RoleDialog>(null)
  const [keyword, setKeyword] = useState('')
  const [appliedKeyword, setAppliedKeyword] = useState('')

  const load = useCallback(async () => {
    setIsLoading(true)
    try {
      setRoles(appliedKeyword === '' ? await findAllRoles() : await searchRoles(appliedKeyword))
      setLoadError(null)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [appliedKeyword])

  async function openEdit(role: Role) {
    try {
      setDialog({ mode: 'edit', role: await findRole(role.id) })
    } catch (error) {
      showErrorToast(error)
      void load()
    }
  }

  useEffect(() => {
    void load()
  }, [load])

  /** What the page calls a role: the translated name of a built-in one, else its own. */
  const displayName = (role: Role) => {
    const builtinName = role.is_builtin ? accessLevelName(role.name) : undefined
    return builtinName ? i18n._(builtinName) : role.name
  }

  async function remove(role: Role) {
    if (!(await confirmDelete({ itemName: displayName(role) }))) return
    try {
      await deleteRole(role.id)
      toast.success(t`Deleted.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <section className="ts-system-page">
      <h1 className="ts-page-title">
        <Trans>Role management</Trans>
      </h1>
      <div className="ts-system-panel">
        <KeywordSearchForm
          className="ts-table-toolbar"
          formLabel={t`Search roles`}
          fieldLabel={t`Search by name or description`}
          keyword={keyword}
          onKeywordChange={setKeyword}
          onSearch={setAppliedKeyword}
        >
          <Button
            variant="primary"
            onClick={() => setDialog({ mode: 'add' })}
            style={{ marginLeft: 'auto' }}
          >
            <Trans>Add role</Trans>
          </Button>
        </KeywordSearchForm>
        <LoadStates
          data={roles}
          error={loadError === null ? null : errorText(loadError)}
          onRetry={load}
          isRetrying={isLoading}
          isEmpty={(loaded) => loaded.length === 0}
          emptyTitle={<Trans>No roles found</Trans>}
        >
          {(roles) => (
            <table className="ts-table">
              <TableHead
                columns={[
                  { key: 'role', label: <Trans>Role</Trans> },
                  { key: 'description', label: <Trans>Description</Trans> },
                  { key: 'access', label: <Trans>Access level</Trans> },
                  { key: 'menus', label: <Trans>Menu items</Trans> },
                ]}
                hasActions
              />
              <tbody>
                {roles.map((role) => {
                  const roleName = displayName(role)
                  const menuCount = role.menu_keys.length
                  return (
                    <tr key={role.id}>
                      <th scope="row">{roleName}</th>
                      <td>
                        {role.description ??
                          (role.is_builtin ? <BuiltinRoleDescription name={role.name} /> : null)}
                      </td>
                      <td>
                        <AccessLevelLabel level={role.access_level} />
                      </td>
                      <td>{menuCount}</td>
                      <td className="ts-table__actions">
                        <Button
                          variant="ghost"
                          onClick={() => void openEdit(role)}
                          aria-label={t`Edit ${roleName}`}
                        >
                          <Trans>Edit</Trans>
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => void remove(role)}
                          disabled={role.is_builtin}
                          title={role.is_builtin ? t`Built-in roles cannot be deleted.` : undefined}
                          aria-label={t`Delete ${roleName}`}
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
      </div>
      {dialog && (
        <RoleFormDialog
          // A new key per role gives each dialog fresh fields.
          key={dialog.mode === 'edit' ? dialog.role.id : 'add'}
          role={dialog.mode === 'edit' ? dialog.role : null}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null)
            void load()
          }}
        />
      )}
    </section>
  )
}

/** The fields of the role form. */
interface RoleFormValues {
  name: string
  description: string
  accessLevel: 'admin' | 'editor'
  menuKeys: string[]
}

function initialValues(role: Role | null): RoleFormValues {
  if (!role) {
    // A new role starts where every registered user starts: the editor's menu.
    return {
      name: '',
      description: '',
      accessLevel: 'editor',
      menuKeys: [...builtinRoleMenuKeys.editor],
    }
  }
  return {
    name: role.name,
    description: role.description ?? '',
    accessLevel: role.access_level === 'admin' ? 'admin' : 'editor',
    menuKeys: [...role.menu_keys],
  }
}

function RoleFormDialog({
  role,
  onClose,
  onSaved,
}: {
  /** The role to edit, or null to add one. */
  role: Role | null
  onClose: () => void
  onSaved: () => void
}) {
  const { i18n, t } = useLingui()
  const [values, setValues] = useState<RoleFormValues>(() => initialValues(role))
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const isBuiltin = role?.is_builtin ?? false
  const builtinName = role && isBuiltin ? accessLevelName(role.name) : undefined

  const nameError = !values.name.trim() ? t`Please enter the role name.` : undefined

  async function submit() {
    setHasTriedSubmit(true)
    if (nameError) return
    const description = values.description.trim() || null
    try {
      if (!role) {
        await addRole({
          name: values.name.trim(),
          description,
          access_level: values.accessLevel,
          menu_keys: values.menuKeys,
        })
        toast.success(t`Added successfully.`)
      } else {
        await editRole(
          isBuiltin
            ? { id: role.id, description, menu_keys: values.menuKeys }
            : {
                id: role.id,
                name: values.name.trim(),
                description,
                access_level: values.accessLevel,
                menu_keys: values.menuKeys,
              },
        )
        toast.success(t`Modified successfully.`)
      }
      onSaved()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={role ? <Trans>Edit role</Trans> : <Trans>Add role</Trans>}
      onSubmit={submit}
      submitLabel={role ? <Trans>Modify</Trans> : <Trans>Save</Trans>}
      widthPx={640}
    >
      <TextField
        label={t`Role name`}
        value={builtinName ? i18n._(builtinName) : values.name}
        onChange={(event) => setValues({ ...values, name: event.target.value })}
        maxLength={roleNameMaxLength}
        error={hasTriedSubmit ? nameError : undefined}
        hint={isBuiltin ? t`Built-in roles keep their name and access level.` : undefined}
        disabled={isBuiltin}
        required
      />
      <TextArea
        label={t`Description`}
        value={values.description}
        onValueChange={(description) => setValues({ ...values, description })}
        maxLength={roleDescriptionMaxLength}
        rows={2}
      />
      <Select
        label={t`Access level`}
        value={role?.access_level === 'guest' ? 'guest' : values.accessLevel}
        onValueChange={(level) =>
          setValues({ ...values, accessLevel: level === 'admin' ? 'admin' : 'editor' })
        }
        options={[
          { value: 'editor', label: t`Editor: creates and edits their own projects` },
          { value: 'admin', label: t`Administrator: manages users, roles and everything else` },
          ...(role?.access_level === 'guest'
            ? [{ value: 'guest', label: t`Guest: views only` }]
            : []),
        ]}
        disabled={isBuiltin}
      />
      <MenuKeyPicker
        value={values.menuKeys}
        onValueChange={(menuKeys) => setValues({ ...values, menuKeys })}
      />
    </FormDialog>
  )
}
