import { Trans } from '@lingui/react/macro'
import './FileChoiceFace.css'

/**
 * The face of a file field in the console's language, for a `<label>` that also holds the field's
 * `<input type="file" className="ts-visually-hidden">`: the browser's own file button speaks the
 * browser's language ("Choose Files" in a Korean screen), not the user's. With `fileNames` it
 * also names what was chosen.
 */
export function FileChoiceFace({
  isMultiple = false,
  fileNames,
}: {
  isMultiple?: boolean
  fileNames?: readonly string[]
}) {
  return (
    <>
      <span className="ts-file-choice__button" aria-hidden="true">
        {isMultiple ? <Trans>Choose files…</Trans> : <Trans>Choose a file…</Trans>}
      </span>
      {fileNames !== undefined && (
        <span className="ts-file-choice__names">
          {fileNames.length === 0 ? <Trans>No file chosen</Trans> : fileNames.join(', ')}
        </span>
      )}
    </>
  )
}
