import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'wouter'
import { navigateHash } from '../../app/hash-location'
import { useServices } from '../../app/services'
import { toast } from '../../ui'
import { TelCodePasswordForm } from './TelCodePasswordForm'
import './sign.css'

/** Sign up by phone, SMS code and password (SPEC §2); the new account is signed in at once. */
export function RegisterPage() {
  const { t } = useLingui()
  const services = useServices()
  return (
    <div className="ts-sign-page">
      <TelCodePasswordForm
        purpose="register"
        requestCode={services.requestSmsCode}
        submit={services.registerByTel}
        onDone={() => {
          toast.success(t`Your account is ready.`)
          navigateHash('/', { replace: true })
        }}
      />
      <div className="ts-sign-page__links">
        <Link href="/login">
          <Trans>Already have an account? Sign in</Trans>
        </Link>
      </div>
    </div>
  )
}
