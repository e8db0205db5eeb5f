import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { CityBasemapFailure } from '../../../../engine/api'

/**
 * What a user reads when the basemap fails, by the kind the engine reports (never MapLibre's
 * raw "AJAXError …" text). A Record over the union: a new kind without words does not compile.
 */
const basemapFailureMessages: Record<CityBasemapFailure, MessageDescriptor> = {
  notAllowed: msg`The basemap could not be loaded: this server does not allow its map host. Ask an administrator to add it to the map host list (MAP_PROXY_HOSTS), or choose another basemap.`,
  unreachable: msg`The basemap could not be loaded: its map server cannot be reached right now. Check the address or the network, or choose another basemap.`,
  tooLarge: msg`The basemap could not be loaded: its map server sent more data than this server accepts.`,
  notFound: msg`The basemap could not be loaded: nothing was found at its address. Check the style address.`,
  notStyle: msg`The basemap could not be loaded: the address does not lead to a MapLibre style. Check the style address.`,
  failed: msg`The basemap could not be loaded. Choose another basemap or try again later.`,
}

/** The translatable message for a basemap failure; render it with lingui's `i18n._`. */
export function basemapFailureMessage(failure: CityBasemapFailure): MessageDescriptor {
  return basemapFailureMessages[failure]
}
