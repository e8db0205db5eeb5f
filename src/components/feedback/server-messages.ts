import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Envelope, ValidationIssue } from '../../../contract/envelope'
import { errorKindOfCode } from '../../../contract/errors'
import { isMessageId, type MessageParam } from '../../../contract/messages'
import { serverMessageTexts } from '../../i18n/server-message-texts'

/** The parts of a failure envelope that say what went wrong. */
export type ServerAnswer = Pick<Envelope, 'code' | 'messageId' | 'params' | 'datum'>

/** At most this many wrong fields are named in one line; the rest are counted. */
const shownIssues = 3

/**
 * What the server said, in the user's language (decisions.md "Messages"): the catalogue message
 * named by `messageId` with its `params`; for a validation answer, each wrong field with its
 * problem (`name: Required; …`). Never the server's English: an id this console does not know
 * (a newer server) reads as the general text of the answer's code.
 */
export function serverMessageText(answer: ServerAnswer): string {
  // Only the general "check these fields" answer lists its fields; a field error of a service
  // ('The verification code is wrong…') says it all in its own message.
  const issues =
    answer.messageId === 'validation.invalidFields' ? validationIssuesOf(answer.datum) : []
  if (issues.length > 0) {
    const shown = issues.slice(0, shownIssues).map((issue) => {
      const problem = catalogueText(issue.messageId, issue.params) ?? i18n._(msg`Invalid value`)
      return issue.field === '' ? problem : `${issue.field}: ${problem}`
    })
    const hiddenCount = issues.length - shown.length
    if (hiddenCount > 0) shown.push(i18n._(msg`and ${hiddenCount} more`))
    return shown.join('; ')
  }
  return catalogueText(answer.messageId, answer.params) ?? generalText(answer.code)
}

/** The general text of a response code, for answers without a message this console knows. */
export function generalText(code: string): string {
  const kind = errorKindOfCode(code)
  if (kind === undefined || kind === 'ok')
    return i18n._(msg`Something went wrong, please try again.`)
  return i18n._(serverMessageTexts[`error.${kind}`])
}

function catalogueText(
  id: string | undefined,
  params: Readonly<Record<string, MessageParam>> | undefined,
): string | undefined {
  if (!isMessageId(id)) return undefined
  const descriptor = serverMessageTexts[id]
  return i18n._(descriptor.id, { ...params }, { message: descriptor.message })
}

/** The validation details of a datum that name their problem by id. */
function validationIssuesOf(datum: unknown): ValidationIssue[] {
  const details = (datum as { details?: unknown } | null)?.details
  if (!Array.isArray(details)) return []
  return details.filter(
    (detail): detail is ValidationIssue =>
      typeof (detail as ValidationIssue | null)?.field === 'string' &&
      isMessageId((detail as ValidationIssue).messageId),
  )
}
