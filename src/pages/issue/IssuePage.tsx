import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { createNoticeBodySchema } from '../../../contract/notice'
import { createNotice, queryNotices } from '../../api/notice'
import { showErrorToast } from '../../components/feedback/error-text'
import { loadNotices } from '../../state/notice-board'
import { FormWrapper, TextArea, TextField, toast } from '../../ui'
import '../system/system.css'

/** The contract's limits, so the form stops the user before the server has to. */
const noticeTitleMaxLength = createNoticeBodySchema.shape.title.maxLength ?? undefined
const noticeBodyMaxLength = createNoticeBodySchema.shape.body.maxLength ?? undefined

/** `/issue` (admin): publishes an announcement every user sees under the bell. */
export function IssuePage() {
  const { t } = useLingui()
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)

  const titleError = !title.trim() ? t`Please enter a title.` : undefined
  const bodyError = !body.trim() ? t`Please enter the announcement text.` : undefined

  async function publish() {
    setHasTriedSubmit(true)
    if (titleError || bodyError) return
    try {
      await createNotice(title.trim(), body.trim())
      toast.success(t`The announcement was published.`)
      setTitle('')
      setBody('')
      setHasTriedSubmit(false)
      void loadNotices(queryNotices)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <section className="ts-system-page ts-system-page--narrow" style={{ maxWidth: 720 }}>
      <h1 className="ts-page-title">
        <Trans>Publish an announcement</Trans>
      </h1>
      <FormWrapper onSubmit={publish} submitLabel={<Trans>Publish</Trans>}>
        <TextField
          label={t`Title`}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          maxLength={noticeTitleMaxLength}
          error={hasTriedSubmit ? titleError : undefined}
          required
        />
        <TextArea
          label={t`Announcement`}
          value={body}
          onValueChange={setBody}
          maxLength={noticeBodyMaxLength}
          rows={10}
          error={hasTriedSubmit ? bodyError : undefined}
          required
        />
      </FormWrapper>
    </section>
  )
}
