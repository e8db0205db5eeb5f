import { Trans, useLingui } from '@lingui/react/macro'
import type { User } from '../../api/types'
import { changeContact, sendContactChangeCode } from '../../api/user'
import { storeUserData } from '../../state/session'
import { Dialog, toast } from '../../ui'
import { AddressCodePasswordForm } from '../sign/AddressCodePasswordForm'
import { emailProblem } from '../sign/EmailSignUpForm'
import { normaliseTel, telProblem } from '../sign/validation'

/** Which of the person's addresses changes. */
export type ContactField = 'tel' | 'email'

/** The calls the dialog makes; tests pass their own. */
export interface ContactChangeServices {
  sendCode: (field: ContactField, address: string) => Promise<void>
  change: (field: ContactField, address: string, code: string) => Promise<User>
}

const serverServices: ContactChangeServices = {
  sendCode: sendContactChangeCode,
  change: changeContact,
}

/** Props of {@link ContactChangeDialog}. */
export interface ContactChangeDialogProps {
  /** The address to change; null closes the dialog. */
  field: ContactField | null
  onClose: () => void
  services?: ContactChangeServices
}

/**
 * A new phone number or e-mail address for the signed-in person (issue 21): typed, a code sent
 * to it (`sendPhoneChangeCode` / `sendEmailChangeCode`), and the change made only with that code
 * (`changePhone` / `changeEmail`), so nobody gives an account an address they do not hold.
 */
export function ContactChangeDialog({
  field,
  onClose,
  services = serverServices,
}: ContactChangeDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog
      isOpen={field !== null}
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={field === 'tel' ? <Trans>Change phone number</Trans> : <Trans>Change e-mail</Trans>}
      widthPx={480}
    >
      {field && (
        <AddressCodePasswordForm
          key={field}
          title={
            field === 'tel' ? (
              <Trans>A code is sent to the new phone number; the change needs it.</Trans>
            ) : (
              <Trans>A code is sent to the new e-mail address; the change needs it.</Trans>
            )
          }
          submitLabel={<Trans>Change</Trans>}
          address={
            field === 'tel'
              ? {
                  label: t`New phone number`,
                  type: 'tel',
                  problem: telProblem,
                  normalise: normaliseTel,
                }
              : {
                  label: t`New e-mail address`,
                  type: 'email',
                  problem: emailProblem,
                  normalise: (email) => email.trim().toLowerCase(),
                }
          }
          requestCode={(address) => services.sendCode(field, address)}
          submit={async (address, code) => {
            storeUserData(await services.change(field, address, code))
            toast.success(t`Modified successfully.`)
          }}
          onDone={onClose}
        />
      )}
    </Dialog>
  )
}
