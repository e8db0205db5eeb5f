import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'wouter'
import { navigateHash } from '../../app/hash-location'
import { useServices } from '../../app/services'
import { Tabs, toast } from '../../ui'
import { EmailSignUpForm } from './EmailSignUpForm'
import { TelCodePasswordForm } from './TelCodePasswordForm'
import './sign.css'

/**
 * Sign up by phone, SMS code and password (SPEC §2), or by e-mail address and a code sent to it
 * (SPEC §7 `registerbymail`); either way the new account is signed in at once.
 */
export function RegisterPage() {
  const { t } = useLingui()
  const services = useServices()
  const onDone = () => {
    toast.success(t`Your account is ready.`)
    navigateHash('/', { replace: true })
  }
  return (
    <div className="ts-sign-page">
      <Tabs
        label={t`Sign up with`}
        items={[
          {
            value: 'tel',
            label: t`Phone`,
            content: (
              <TelCodePasswordForm
                purpose="register"
                requestCode={services.requestSmsCode}
                submit={services.registerByTel}
                onDone={onDone}
              />
            ),
          },
          {
            value: 'email',
            label: t`E-mail`,
            content: (
              <EmailSignUpForm
                requestCode={services.requestMailCode}
                isTaken={services.isEmailTaken}
                submit={services.registerByMail}
                onDone={onDone}
              />
            ),
          },
        ]}
      />
      <div className="ts-sign-page__links">
        <Link href="/login">
          <Trans>Already have an account? Sign in</Trans>
        </Link>
      </div>
    </div>
  )
}
