import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { User, UserProfile } from '../../api/types'
import { uploadImage, uploadedImagePath } from '../../api/upload'
import { saveProfile } from '../../state/account'
import { showErrorToast } from '../../components/feedback/error-text'
import { DeveloperMetricsToggle } from '../../components/shell/DeveloperMetricsToggle'
import { usePermissions } from '../../components/use-permissions'
import { session } from '../../state/session'
import {
  Button,
  DateField,
  FormWrapper,
  ImagePicker,
  Select,
  Spinner,
  TextField,
  toast,
} from '../../ui'
import { type ContactField, ContactChangeDialog } from './ContactChangeDialog'
import './system.css'

/** The profile the form saves; phone and e-mail change through their code (ContactChangeDialog). */
type FormProfile = Omit<UserProfile, ContactField>
type ProfileForm = Record<keyof FormProfile, string>

function profileFormOf(user: Pick<User, keyof FormProfile>): ProfileForm {
  return {
    name: user.name ?? '',
    nickname: user.nickname ?? '',
    sex: user.sex ?? '',
    birthday: user.birthday ?? '',
    job_title: user.job_title ?? '',
    company: user.company ?? '',
    avatar: user.avatar ?? '',
  }
}

/** Empty optional fields travel as null so the server stores "not given", not "". */
function profileOf(form: ProfileForm): FormProfile {
  const orNull = (value: string) => (value.trim() ? value.trim() : null)
  return {
    name: form.name.trim(),
    nickname: orNull(form.nickname),
    sex: orNull(form.sex),
    birthday: orNull(form.birthday),
    job_title: orNull(form.job_title),
    company: orNull(form.company),
    avatar: orNull(form.avatar),
  }
}

/**
 * `/system/person`: every User field of SPEC §3 and the avatar; the phone number and e-mail
 * change only with a code sent to the new one. Guests see it read-only.
 */
export function PersonPage() {
  const { userData } = useSnapshot(session)
  if (!userData) return <Spinner />
  // Keyed by user so the form starts over when another account signs in.
  return <PersonForm key={userData.id} user={userData as User} />
}

function PersonForm({ user }: { user: User }) {
  const { t } = useLingui()
  const { canEdit } = usePermissions()
  const [form, setForm] = useState<ProfileForm>(() => profileFormOf(user))
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [changing, setChanging] = useState<ContactField | null>(null)
  const set = (field: keyof ProfileForm) => (event: ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }))

  const nameError =
    hasTriedSubmit && !form.name.trim() ? t`Please enter your user name.` : undefined

  async function save() {
    setHasTriedSubmit(true)
    if (!form.name.trim()) return
    try {
      await saveProfile(user, profileOf(form))
      toast.success(t`Modified successfully.`)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <section className="ts-system-page">
      <h1 className="ts-page-title">
        <Trans>Personal info</Trans>
      </h1>
      {!canEdit && (
        <p className="ts-system-page__notice" role="note">
          <Trans>Guests can view this page but not change it.</Trans>
        </p>
      )}
      <div className="ts-person">
        <AvatarPicker
          avatar={form.avatar}
          canEdit={canEdit}
          onUploaded={(path) => setForm((current) => ({ ...current, avatar: path }))}
        />
        <fieldset className="ts-person__fields" disabled={!canEdit}>
          <legend className="ts-visually-hidden">
            <Trans>Personal info</Trans>
          </legend>
          <FormWrapper
            onSubmit={save}
            submitLabel={<Trans>Save</Trans>}
            isSubmitDisabled={!canEdit}
          >
            <div className="ts-form-grid">
              <TextField
                label={t`User name`}
                value={form.name}
                onChange={set('name')}
                error={nameError}
                required
                autoComplete="username"
              />
              <TextField
                label={t`Nickname`}
                value={form.nickname}
                onChange={set('nickname')}
                autoComplete="nickname"
              />
              <Select
                label={t`Sex`}
                value={form.sex || undefined}
                onValueChange={(sex) => setForm((current) => ({ ...current, sex }))}
                placeholder={t`Not specified`}
                disabled={!canEdit}
                options={[
                  { value: 'male', label: t`Male` },
                  { value: 'female', label: t`Female` },
                  { value: 'other', label: t`Other` },
                ]}
              />
              <DateField
                label={t`Birthday`}
                value={form.birthday}
                onValueChange={(birthday) => setForm((current) => ({ ...current, birthday }))}
                disabled={!canEdit}
              />
              <TextField
                label={t`Phone number`}
                type="tel"
                value={user.tel ?? ''}
                readOnly
                endAdornment={
                  canEdit && (
                    <Button variant="secondary" onClick={() => setChanging('tel')}>
                      <Trans>Change phone number</Trans>
                    </Button>
                  )
                }
              />
              <TextField
                label={t`E-mail`}
                type="email"
                value={user.email ?? ''}
                readOnly
                endAdornment={
                  canEdit && (
                    <Button variant="secondary" onClick={() => setChanging('email')}>
                      <Trans>Change e-mail</Trans>
                    </Button>
                  )
                }
              />
              <TextField
                label={t`Job title`}
                value={form.job_title}
                onChange={set('job_title')}
                autoComplete="organization-title"
              />
              <TextField
                label={t`Company`}
                value={form.company}
                onChange={set('company')}
                autoComplete="organization"
              />
            </div>
          </FormWrapper>
        </fieldset>
      </div>
      {/* outside the profile form: its own form's submit must not reach the profile's */}
      <ContactChangeDialog field={changing} onClose={() => setChanging(null)} />
      <DeveloperMetricsToggle />
    </section>
  )
}

/** The avatar: the kit's picker refuses anything but JPEG/PNG under 2 MB before upload. */
function AvatarPicker({
  avatar,
  canEdit,
  onUploaded,
}: {
  avatar: string
  canEdit: boolean
  onUploaded: (path: string) => void
}) {
  const { t } = useLingui()
  const [isUploading, setIsUploading] = useState(false)

  async function upload(file: File) {
    setIsUploading(true)
    try {
      onUploaded(uploadedImagePath(await uploadImage(file)))
      toast.success(t`Uploaded. Save to keep the new avatar.`)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsUploading(false)
    }
  }

  return (
    <div className="ts-avatar" aria-busy={isUploading || undefined}>
      <ImagePicker
        label={t`Avatar`}
        currentImageUrl={avatar || undefined}
        onPick={(file) => void upload(file)}
        disabled={!canEdit || isUploading}
        hint={t`JPG or PNG, at most 2 MB.`}
      />
    </div>
  )
}
