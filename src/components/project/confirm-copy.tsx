import { Trans } from '@lingui/react/macro'
import { copyNameOf } from '../../../contract/project'
import { copyProject, type Project } from '../../api/project'
import { isLanguage } from '../../i18n/languages'
import { projectTexts } from '../../i18n/library-names'
import { confirm } from '../../ui'

/**
 * Copies a project after the user confirms (issue 12 item 15): the dialog names the project and
 * the copy's name, "<name> (copy)" in the console's language (`copyNameOf`, shared with the
 * server), and that very name is sent. Enter or the Copy button confirms, Escape or Cancel does
 * not. Answers the copy, or null when the user cancelled.
 */
export async function copyProjectWithConfirmation(
  project: Project,
  locale: string,
  copy: typeof copyProject = copyProject,
): Promise<Project | null> {
  // a seeded case is named in the user's language, and so is its copy
  const projectName = projectTexts(project).name
  const copyName = copyNameOf(projectName, isLanguage(locale) ? locale : 'ko')
  const isConfirmed = await confirm({
    type: 'info',
    title: <Trans>Copy project</Trans>,
    message: (
      <Trans>
        Make a copy of “{projectName}”? The copy will be named “{copyName}”.
      </Trans>
    ),
    confirmLabel: <Trans>Copy</Trans>,
  })
  if (!isConfirmed) return null
  return copy(project.id, copyName)
}
