import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { ApiError } from '../../../api/client'
import { errorText } from '../../../components/feedback/error-text'

/**
 * The building upload refusals (contract/messages.ts `building.*`) in the user's language, from
 * the id and parameters the server's answer carries; anything else as `errorText` says it.
 * The converter's own detail (English, technical) stays in the answer's details for support.
 */
export function uploadErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return errorText(error)
  const envelope = error.envelope
  const file = String(envelope?.params?.file ?? '')
  switch (envelope?.messageId) {
    case 'building.modelFileNotAccepted':
      return i18n._(
        msg`${file} cannot be used here: upload .sbm, .glb, .gltf (with its .bin and images), .dae or .fbx files, or one .zip of them.`,
      )
    case 'building.zipHasNoModel':
      return i18n._(msg`${file} holds no model (.sbm, .glb, .gltf, .dae or .fbx).`)
    case 'building.conversionRefused':
      return i18n._(
        msg`${file} could not be converted to a building model. Check that it opens in a 3D viewer, or export it again as .glb.`,
      )
    case 'building.oneZipOnly':
      return i18n._(msg`Upload either model files or one ZIP, not both or several ZIPs.`)
    case 'building.oneShellModel':
      return i18n._(msg`The shell is one model, or one building structure .json.`)
    case 'building.floorNotFound':
      return i18n._(msg`This floor does not exist.`)
    default:
      return errorText(error)
  }
}
