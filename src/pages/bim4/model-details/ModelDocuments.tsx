import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useRef, useState } from 'react'
import {
  deleteModelDocument,
  type ModelDetail,
  type ModelDocument,
  modelDocumentExtensions,
  uploadModelDocuments,
} from '../../../api/model-details'
import { showErrorToast } from '../../../components/feedback/error-text'
import { Button, confirmDelete, formatFileSize, toast } from '../../../ui'

/** What the file chooser offers: the kinds the server takes (it checks the content itself). */
const documentAccept = modelDocumentExtensions.map((extension) => `.${extension}`).join(',')

/**
 * The documents attached to a model's details (issue 21 item 5: manuals, certificates, data
 * sheets): each a link that downloads it. With `onChanged`, the box also attaches new ones (PDF,
 * images, office files; the server refuses other content, hostile names and zip bombs, and the
 * reason is shown in the user's language) and removes one after asking.
 */
export function ModelDocuments({
  detail,
  onChanged,
  upload = uploadModelDocuments,
  remove = deleteModelDocument,
}: {
  detail: Pick<ModelDetail, 'id' | 'model_name' | 'documents'>
  /** Leave out to list the documents without changing them. */
  onChanged?: (detail: ModelDetail) => void
  upload?: typeof uploadModelDocuments
  remove?: typeof deleteModelDocument
}) {
  const { t } = useLingui()
  const input = useRef<HTMLInputElement>(null)
  const [isUploading, setIsUploading] = useState(false)
  const modelName = detail.model_name

  async function attach(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])]
    // cleared so choosing the same file again still fires a change
    event.target.value = ''
    if (files.length === 0 || !onChanged) return
    setIsUploading(true)
    try {
      onChanged(await upload(detail.id, files))
      toast.success(t`Documents attached.`)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsUploading(false)
    }
  }

  async function removeDocument(document: ModelDocument) {
    if (!onChanged || !(await confirmDelete({ itemName: document.file_name }))) return
    try {
      onChanged(await remove(document.id))
      toast.success(t`Deleted.`)
    } catch (error) {
      showErrorToast(error)
    }
  }

  if (!onChanged && detail.documents.length === 0) return null
  return (
    <section className="ts-model-documents" aria-label={t`Documents of ${modelName}`}>
      <h3 className="ts-model-documents__title">
        <Trans>Documents</Trans>
      </h3>
      {detail.documents.length === 0 ? (
        <p className="ts-bim4-pick__hint">
          <Trans>No documents attached.</Trans>
        </p>
      ) : (
        <ul className="ts-plain-list ts-model-documents__list" data-testid="model-documents">
          {detail.documents.map((document) => (
            <li key={document.id} className="ts-model-documents__item">
              <a href={document.url} download={document.file_name}>
                {document.file_name}
              </a>
              <span className="ts-model-documents__size">
                {formatFileSize(document.size_bytes)}
              </span>
              {onChanged && (
                <Button
                  variant="ghost"
                  aria-label={t`Delete ${document.file_name}`}
                  onClick={() => void removeDocument(document)}
                >
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {onChanged && (
        <>
          <Button variant="secondary" isBusy={isUploading} onClick={() => input.current?.click()}>
            <Trans>Attach documents</Trans>
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            accept={documentAccept}
            hidden
            data-testid="model-document-input"
            aria-label={t`Attach documents`}
            onChange={(event) => void attach(event)}
          />
        </>
      )}
    </section>
  )
}
