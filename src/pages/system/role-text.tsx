import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'

/**
 * How the admin pages name roles. The three built-in roles are named after their access level
 * and get translated names; a role an admin created shows the name the admin gave it.
 */

const accessLevelNames: Record<string, MessageDescriptor> = {
  admin: msg`Administrator`,
  editor: msg`Editor`,
  guest: msg`Guest`,
}

/** The translatable name of an access level (admin, editor, guest), or undefined. */
export function accessLevelName(level: string): MessageDescriptor | undefined {
  return Object.hasOwn(accessLevelNames, level) ? accessLevelNames[level] : undefined
}

/** An access level's translated name; an unknown level shows as sent. */
export function AccessLevelLabel({ level }: { level: string }) {
  const { i18n } = useLingui()
  const name = accessLevelName(level)
  return <>{name ? i18n._(name) : level}</>
}

/** A role's name: translated for the built-in roles, as written for the others. */
export function RoleName({ name, isBuiltin }: { name: string; isBuiltin: boolean }) {
  return isBuiltin ? <AccessLevelLabel level={name} /> : name
}

/** What a built-in role may do (decisions.md "Accounts"); the server sends no text for them. */
export function BuiltinRoleDescription({ name }: { name: string }) {
  if (name === 'admin')
    return <Trans>Manages users, roles and announcements, and edits everything.</Trans>
  if (name === 'editor') return <Trans>Creates and edits their own projects.</Trans>
  if (name === 'guest') return <Trans>Views project cases and previews, read only.</Trans>
  return null
}
