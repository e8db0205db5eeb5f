import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'wouter'
import { navigateHash } from '../../app/hash-location'
import { useServices } from '../../app/services'
import { toast } from '../../ui'
import { TelCodePasswordForm } from './TelCodePasswordForm'
import './sign.css'

/** Forgotten password: phone, SMS code, new password and confirmation; then sign in again. */
export function ForgetPage() {
  const { t } = useLingui()
  const services = useServices()
  return (
    <div className="ts-sign-page">
      <TelCodePasswordForm
        purpose="forget"
        requestCode={services.requestSmsCode}
        verifyCode={services.checkResetCode}
        submit={services.resetPasswordByTel}
        onDone={() => {
          toast.success(t`Your password was changed. Please sign in.`)
          navigateHash('/login', { replace: true })
        }}
      />
      <div className="ts-sign-page__links">
        <Link href="/login">
          <Trans>Back to sign in</Trans>
        </Link>
      </div>
    </div>
  )
}
