/**
 * The catalogue of every message the server sends a person (decisions.md "Messages"): a stable
 * id → its English template with named parameters (`{names}`). An error answer carries the id
 * and the parameters beside the English text (`messageId`, `params` in the envelope), and the
 * console renders the id in the user's language (src/i18n/server-messages.ts, which must have
 * a ko/zh/en text for every id here: src/i18n/server-messages.test.ts checks it).
 *
 * Adding a message: add the id here (grouped by area, `area.whatHappened`), use it with
 * `new AppError(kind, 'area.whatHappened', { param })`, add the same English text to
 * src/i18n/server-messages.ts, run `npm run i18n:extract` and translate it in the ko and zh
 * .po files. Parameters are plain values (names, numbers); never pass English words in them.
 */
export const serverMessages = {
  // generic: the fallback of each error kind, for answers with nothing more specific to say
  'error.validation': 'The request is not valid.',
  'error.badCredentials': 'Incorrect user name or password.',
  'error.paymentRequired': 'This needs a paid project.',
  'error.forbidden': 'You do not have permission to do this.',
  'error.notFound': 'Not found.',
  'error.conflict': 'This conflicts with the current state; reload and try again.',
  'error.tooLarge': 'The request is too large.',
  'error.unsupportedFile': 'This type of file is not supported.',
  'error.rateLimited': 'Too many requests. Please wait a moment and try again.',
  'error.internal': 'Internal server error.',
  'error.unavailable': 'The service is not available right now. Please try again later.',
  'error.sessionTimeout': 'Your session has timed out. Please sign in again.',

  // input validation: the answer names the fields, each detail says what is wrong with one
  'validation.invalidFields': 'Please check these fields: {fields}.',
  'validation.required': 'Required',
  'validation.invalid': 'Invalid value',
  'validation.expectedNumber': 'Expected a number',
  'validation.expectedInteger': 'Expected a whole number',
  'validation.expectedText': 'Expected text',
  'validation.expectedBoolean': 'Expected true or false',
  'validation.expectedList': 'Expected a list',
  'validation.expectedObject': 'Expected an object',
  'validation.tooShort': 'At least {minimum} characters',
  'validation.tooLong': 'At most {maximum} characters',
  'validation.tooSmall': 'At least {minimum}',
  'validation.tooBig': 'At most {maximum}',
  'validation.notAbove': 'Must be greater than {minimum}',
  'validation.notBelow': 'Must be less than {maximum}',
  'validation.tooFewItems': 'At least {minimum} items',
  'validation.tooManyItems': 'At most {maximum} items',
  'validation.invalidFormat': 'The format is not valid',
  'validation.invalidEmail': 'Not a valid e-mail address',
  'validation.oneOf': 'Expected one of: {values}',
  'validation.notMultipleOf': 'Must be a multiple of {divisor}',
  'validation.unknownFields': 'Unknown fields: {fields}',
  'validation.nulText': 'Text must not contain a NUL character.',

  // the request itself (body, form, multipart, address)
  'request.bodyTooLarge': 'The request body is too large.',
  'request.fileTooLarge': 'The file is too large.',
  'request.tooManyParts': 'The form has too many parts.',
  'request.tooManyFiles': 'Too many files in one request.',
  'request.tooManyFields': 'The form has too many fields.',
  'request.unsupportedContentType':
    'Unsupported content type: send JSON, form-encoded or multipart data.',
  'request.invalidJson': 'The body is not valid JSON.',
  'request.contentLengthMismatch': 'The body size does not match its Content-Length.',
  'request.fieldNameNotAllowed': 'A form field name is not allowed.',
  'request.notMultipart': 'The request is not multipart.',
  'request.uploadCutShort': 'The upload was cut short.',
  'request.malformedUrl': 'The address is malformed.',
  'request.addressNulText': 'The address: Text must not contain a NUL character.',
  'request.routeNotFound': 'Not found: {method} {path}',
  'request.addressPartTooLong': 'A part of the address is too long.',
  'request.headersTooLarge': 'The address or the headers of the request are larger than 16 KB.',
  'request.timeout': 'The request did not arrive in time.',
  'request.malformed': 'The request is malformed.',
  'request.malformedMultipart': 'Malformed multipart body: it is cut short or has no boundary.',
  'request.formFieldsTooLarge': 'The form fields are larger than {maximum} MB in total.',
  'request.fileNotAccepted': '{field}: a file is not accepted here.',
  'request.tooManyFilesOf': 'At most {maximum} file(s) per request.',
  'request.tusExtensionUnsupported':
    'This server does not support that tus extension ({extension}); upload the file in one piece.',

  // the shape of any input, checked before it is validated (server/http/input-shape.ts)
  'input.tooDeep': 'The input is nested deeper than {maximum} levels.',
  'input.tooManyKeys': 'The input holds more than {maximum} keys.',
  'input.tooManyValues': 'The input holds more than {maximum} values.',

  // images and textures, measured from their headers before anything decodes them
  'image.unreadableSize': "{field}: the image's size cannot be read; it is damaged.",
  'image.noPixels': '{field}: the image declares {width} × {height} pixels.',
  'image.tooManyPixels':
    '{field}: the image declares {width} × {height} pixels; at most {maxSide} × {maxSide} is accepted (2048 × 2048 is recommended).',
  'convert.oversizedTextures':
    'Textures larger than {maxSide} × {maxSide} pixels are not accepted: {names}.',

  // background jobs (conversions, tileset ingest)
  'job.timeLimit': 'The job took longer than {seconds} s and was stopped.',
  'job.cancelled': 'The job was cancelled.',
  'job.userQueueFull':
    'You already have {count} jobs waiting; please try again when one has finished.',
  'job.busy': 'The server is busy with other uploads; please try again in a minute.',
  'job.shuttingDown': 'The server is shutting down; please try again in a minute.',
  'job.outOfMemory':
    'The file needs more than {megabytes} MB of memory to process and was refused.',

  // projects
  'project.notFound': 'This project does not exist.',
  'project.foreign': 'This project belongs to someone else.',
  'project.tokenWrongProject': 'This project token does not open this project.',
  'project.tokenEnded': 'This project token does not work (any more).',
  'project.signInOrToken': 'Sign in, or open the project with its project token.',
  'file.grantRefused': 'This link does not open this file.',

  // sign-in
  'signIn.lockedHere':
    'Too many failed sign-ins from here: this account is locked for you for {minutes} more minute(s).',
  'signIn.slowed': 'Too many failed sign-ins. Please wait {seconds} s before trying again.',

  // building models (floor and shell uploads, floors)
  'building.modelFileNotAccepted':
    '{file} cannot be used here: upload .sbm, .glb, .gltf (with its .bin and images), .dae or .fbx files, or one .zip of them.',
  'building.zipHasNoModel': '{file} holds no model (.sbm, .glb, .gltf, .dae or .fbx).',
  'building.conversionRefused': '{file} could not be converted to a building model.',
  'building.oneZipOnly': 'Upload either model files or one ZIP, not both or several ZIPs.',
  'building.oneShellModel': 'The shell is one model, or one building structure .json.',
  'building.floorNotFound': 'This floor does not exist.',

  // the map proxy (online basemap styles, server/modules/map-proxy); `datum.reason` says which
  'mapProxy.invalidAddress': 'The map address is not a valid address.',
  'mapProxy.notHttp': 'Only http:// and https:// map addresses can be used.',
  'mapProxy.credentials': 'Map addresses with a user name or password are refused.',
  'mapProxy.hostNotAllowed':
    "The map server {host} is not on this server's list of allowed map hosts (MAP_PROXY_HOSTS).",
  'mapProxy.privateAddress':
    'The map address points into a private network or at this server itself; it is refused.',
  'mapProxy.grantInvalid': 'This map address is not valid (any more): reload the map.',
  'mapProxy.notFound': 'No such map address.',
  'mapProxy.timeout': 'The map server did not answer within {timeoutMs} ms.',
  'mapProxy.tooLarge':
    'The map resource is larger than {limitKb} KB (MAP_PROXY_RESPONSE_LIMIT_KB).',
  'mapProxy.upstreamStatus': 'The map server answered HTTP {status}.',
  'mapProxy.unreachable': 'The map server could not be reached.',
  'mapProxy.redirects': 'The map server redirected too many times.',
  'mapProxy.notStyle': 'The address does not answer a MapLibre style (JSON).',
  'mapProxy.notTileJson': 'The map source does not answer TileJSON.',
  'mapProxy.regionTooLarge':
    'This region needs more than {maximum} tiles (MAP_KEEP_REGION_MAX_TILES): choose a smaller area or fewer zoom levels.',
} as const satisfies Record<string, string>

/** A stable id of a server message, e.g. `'project.notFound'`. */
export type MessageId = keyof typeof serverMessages

/** A parameter value: shown as is (numbers are formatted by the client's locale). */
export type MessageParam = string | number

/** The names of the `{placeholders}` of a template. */
type PlaceholderNames<Template extends string> =
  Template extends `${string}{${infer Name}}${infer Rest}` ? Name | PlaceholderNames<Rest> : never

/** The parameters a message id needs: one per placeholder of its template. */
export type MessageParams<Id extends MessageId> = {
  [Name in PlaceholderNames<(typeof serverMessages)[Id]>]: MessageParam
}

/** True when the message id's template has placeholders. */
export type HasParams<Id extends MessageId> = [
  PlaceholderNames<(typeof serverMessages)[Id]>,
] extends [never]
  ? false
  : true

/** A message as it travels: its id and its parameters. */
export interface ServerMessage {
  id: MessageId
  params: Record<string, MessageParam>
}

/** True when `value` is an id of this catalogue (e.g. a zod issue message written as an id). */
export function isMessageId(value: unknown): value is MessageId {
  return typeof value === 'string' && Object.hasOwn(serverMessages, value)
}

/**
 * The English text of a message: the template with its parameters filled in. A missing
 * parameter stays as its `{placeholder}`, so a mistake shows rather than vanishes.
 */
export function formatServerMessage(
  id: MessageId,
  params: Readonly<Record<string, MessageParam>> = {},
): string {
  return serverMessages[id].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  )
}
