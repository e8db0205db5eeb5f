import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { OVERTIME_CODE } from '../../../contract/errors'
import { ApiError } from '../../api/client'
import { toast } from '../../ui/toast/toast-store'
import { serverMessageText } from './server-messages'

/**
 * The text a user sees for a failed call: the server's message when it answered (SPEC §7
 * "the server message is shown as an error"), rendered from its message id in the user's
 * language, else a translated reason for what went wrong.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.envelope) return serverMessageText(error.envelope)
    if (error.reason === 'timeout') return i18n._(msg`The server took too long to answer.`)
    if (error.reason === 'network')
      return i18n._(msg`The network is not available, please try again later.`)
  }
  return i18n._(msg`Something went wrong, please try again.`)
}

/**
 * The reason shown for anything thrown: a failed call in the user's language (errorText), else
 * the error's own message (e.g. an engine error already put into words by the engine bridge).
 */
export function reasonText(error: unknown): string {
  if (error instanceof ApiError) return errorText(error)
  return error instanceof Error ? error.message : String(error)
}

/**
 * Shows a failed call as an error toast. Stays silent for a session timeout (the timeout handler
 * already warned once) and for calls the screen itself cancelled.
 */
export function showErrorToast(error: unknown): void {
  if (error instanceof ApiError && (error.code === OVERTIME_CODE || error.reason === 'aborted'))
    return
  toast.error(errorText(error))
}
