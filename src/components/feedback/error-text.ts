import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { OVERTIME_CODE } from '../../../contract/errors'
import { ApiError } from '../../api/client'
import { toast } from '../../ui/toast/toast-store'
import { translateServerMessage } from './server-messages'

/**
 * The text a user sees for a failed call: the server's own message when it sent one (SPEC §7
 * "the server message is shown as an error"), in the user's language when the console knows it,
 * else a translated reason for what went wrong.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.envelope?.message) return translateServerMessage(error.envelope.message)
    if (error.reason === 'timeout') return i18n._(msg`The server took too long to answer.`)
    if (error.reason === 'network')
      return i18n._(msg`The network is not available, please try again later.`)
  }
  return i18n._(msg`Something went wrong, please try again.`)
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
