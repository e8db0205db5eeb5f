/**
 * The catalogue of every message the server sends a person (decisions.md "Messages"): a stable
 * id → its English template with named parameters (`{names}`). An error answer carries the id
 * and the parameters beside the English text (`messageId`, `params` in the envelope), and the
 * console renders the id in the user's language (src/components/feedback/server-messages.ts,
 * from the generated src/i18n/server-message-texts.ts, which must have a ko/zh/en text for
 * every id here: tools/server-messages.test.ts checks it).
 *
 * Adding a message: add the id here (grouped by area, `area.whatHappened`), use it with
 * `new AppError(kind, 'area.whatHappened', { param })`, run `npm run i18n:server` (regenerates
 * src/i18n/server-message-texts.ts) and `npm run i18n:extract`, and translate it in the ko and
 * zh .po files. Parameters are plain values (names, numbers); never pass English words in them.
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
  'error.requestTimeout': 'The request took too long to arrive. Please try again.',
  'error.headersTooLarge': 'The request headers are too large.',
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
  'validation.exactlyOneFile': 'Exactly one file',
  'validation.exactlyOneModel': 'Exactly one model',
  'validation.notValidJson': 'Not valid JSON',
  'validation.oneZipOrModels': 'One ZIP, or model files only',

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
  'request.tooManyRefused':
    'Too many of the requests from your address were refused. Please wait {seconds} s and try again.',
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
  'image.unreadableHeader': 'Unreadable image header',
  'image.declaredPixels': '{width} × {height} pixels',
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
  // accounts: sign-in, sessions, sign-up, codes, passwords
  'auth.badCredentials': 'Incorrect user name or password.',
  'auth.accountDisabled': 'This account is disabled.',
  'auth.sessionTimeout': 'Your session has timed out. Please sign in again.',
  'auth.notAllowed': 'You do not have permission to do this.',
  'auth.invalidTicket': 'This sign-in ticket is invalid, used or expired.',
  'auth.tooManyFailuresFromAddress':
    'Too many failed sign-ins from your network. Please wait before trying again.',
  'auth.tooManyGuestSessions':
    'Too many guest sessions from your network in the last hour. Please try again later.',
  'code.resendTooSoon': 'A code was just sent. Please wait before asking for another one.',
  'code.tooManyForRecipient':
    'Too many codes were sent to this recipient in the last hour. Please try again later.',
  'code.tooManyForAddress':
    'Too many codes were requested from your network in the last hour. Please try again later.',
  'code.tooManyChecks':
    'Too many checks from your network in the last hour. Please try again later.',
  'code.tooManySignInCodes':
    'Too many sign-in codes were requested. Please wait before asking again.',
  'code.sendFailed': 'The message could not be sent. Please try again later.',
  'code.invalid': 'The verification code is wrong or has expired. Please request a new one.',
  'code.wrongWithTriesLeft': 'The verification code is wrong ({tries} tries left).',
  'code.wrongOneTryLeft': 'The verification code is wrong (1 try left).',
  'account.nameTaken': 'This user name is already taken.',
  'account.telTaken': 'This phone number is already registered.',
  'account.emailTaken': 'This e-mail address is already registered.',
  'account.identityTaken': 'This user name, phone number or e-mail is already taken.',
  'account.contactNeedsCode':
    'Your phone number and e-mail address change only with a code sent to the new one.',
  'account.emailTooLongForName':
    'This e-mail address is too long to be a user name: please choose a name.',
  'account.notFound': 'User not found.',
  'account.avatarNotUploaded': 'The avatar must be an image you uploaded.',
  'account.onlyOwnProfile': 'You may only change your own profile.',
  'account.onlyAdminChangesRoles': 'Only an administrator may change roles.',
  'account.ownRole': 'You cannot change your own role.',
  'account.ownAccount': 'You cannot delete your own account.',
  'account.ownAccountDisabled': 'You cannot disable your own account.',
  'account.wrongCurrentPassword': 'The current password is wrong.',
  'password.tooShort': 'The password needs at least {minimum} characters.',
  'password.tooLong': 'The password may have at most {maximum} characters.',
  'password.common': 'This password is one of the most common ones. Please choose another.',
  'password.repeated': 'The password may not be one character repeated.',
  'password.ownIdentity': 'The password may not be your user name, phone number or e-mail.',
  // roles, notices, images and files
  'role.notFound': 'This role does not exist.',
  'role.nameTaken': 'A role with this name already exists.',
  'role.builtinRename': 'A built-in role cannot be renamed.',
  'role.builtinAccessLevel': 'A built-in role keeps its access level.',
  'role.builtinDelete': 'A built-in role cannot be deleted.',
  'role.held': 'Accounts holding this role: {holders}. Give them another role before deleting it.',
  'role.guestOnly': 'The guest role belongs to guest sign-in only; choose another role.',
  'notice.notFound': 'This notice does not exist.',
  'image.tooLarge': 'Image size is over 2MB!',
  'image.notJpegOrPng':
    'Only JPEG and PNG images can be uploaded; this file is not one, whatever its name.',
  'image.thumbnailTooLarge': 'The thumbnail is larger than 256 KB.',
  'image.thumbnailNotJpeg': 'The thumbnail must be a JPEG image.',
  'image.sendAsMultipart': 'Send the image as multipart/form-data (field file).',
  'file.notFound': 'File not found.',
  'file.invalidId': 'Invalid file id.',
  'file.tooLarge': 'The file is larger than {maxBytes} bytes.',
  'file.notAcceptedHere': 'A file is not accepted here.',
  'file.tooManyFiles': 'At most {maxFiles} file(s) per request.',
  'project.gone': 'This project does not exist (any more).',
  // form bodies
  'request.tooManyFormFields': 'Too many form fields (at most {max}).',
  'request.badPercentEncoding': 'Malformed form body: invalid percent-encoding.',
  'request.fieldNestedTooDeep': 'Form field name “{name}” is nested deeper than {maxDepth} levels.',
  'request.fieldNameForbidden': 'Form field name “{name}” is not allowed.',
  'request.malformedFieldName': 'Malformed form field name “{name}”.',
  'request.fieldConflict': 'Form field “{name}” conflicts with another field of the same name.',
  // projects and project access
  'project.cityOnly': 'Oblique photography, GIS models and basemaps belong to city projects.',
  'project.noSuchCover': 'No such uploaded image',
  'project.noSuchRegion': 'No such region',
  'project.adminListsOthers': 'Only an admin may list the projects of another user.',
  // archives (zip, .3tz): the codes of workers/unzip/zip-errors.ts
  'archive.notZip': 'The file is not a zip archive.',
  'archive.truncated': 'The zip archive is incomplete. Upload or download it again.',
  'archive.corrupt': 'The zip archive is damaged and cannot be opened.',
  'archive.checksumMismatch': 'A file in the zip archive is damaged (its checksum does not match).',
  'archive.unsafeEntryName':
    'The zip archive contains a file path that points outside its folder, so it was refused.',
  'archive.duplicateEntry': 'The zip archive contains the same file name twice.',
  'archive.tooManyEntries': 'The zip archive contains too many files.',
  'archive.entryTooLarge': 'A file in the zip archive is too large to open here.',
  'archive.tooLarge': 'The zip archive is too large to open here.',
  'archive.suspiciousCompression':
    'The zip archive expands to an implausible size and was refused as unsafe.',
  'archive.encrypted': 'The zip archive is password-protected. Upload it without a password.',
  'archive.unsupportedMethod':
    'The zip archive uses a compression method that is not supported. Save it again with standard (deflate) compression.',
  'archive.entryNotFound': 'The requested file is not in the zip archive.',
  'archive.aborted': 'Extraction was cancelled.',
  // oblique photography (3D Tiles) uploads
  'tileset.notZip':
    'Oblique photography must be a 3D Tiles tileset packed as a .zip or .3tz file; this file is not a zip archive.',
  'tileset.no3tzRoot': 'The .3tz package has no tileset.json at its root.',
  'tileset.emptyArchive': 'The archive is empty.',
  'tileset.ambiguousRoots':
    'The archive has no tileset.json and several JSON files could be the root tileset: {names}. Rename the root one to tileset.json and upload again.',
  'tileset.osgb':
    'This archive holds OSGB oblique photography, which has no open specification and cannot be shown directly. Convert it to 3D Tiles first (for example with Cesium ion or an OSGB-to-3D-Tiles converter) and upload the tileset (tileset.json with its tiles) as a zip.',
  'tileset.noRoot':
    'No tileset.json found: the archive must hold a 3D Tiles tileset with tileset.json at its root or inside one top folder.',
  'tileset.notJson': '{path} is not valid JSON.',
  'tileset.notObject': '{path} is not a 3D Tiles tileset (not an object).',
  'tileset.noAssetVersion': '{path} is not a 3D Tiles tileset: it has no asset.version.',
  'tileset.noRootTile': '{path} is not a 3D Tiles tileset: it has no root tile.',
  'tileset.gzipBroken': '{path} is gzip-compressed but does not inflate.',
  'tileset.tooManyTiles': '{path} has more than {maxTiles} tiles.',
  'tileset.contentOutside':
    '{path} refers to {uri}, which is not a file inside the archive; every content must be a file inside the archive.',
  'tileset.contentMismatch': 'Some files are not what their names say: {files}.',
  'tileset.notFound': 'This oblique photography does not exist.',
  'tileset.otherProject': 'This oblique photography belongs to another project.',
  'tileset.noSuchFile': 'No such file in this tileset.',
  'tileset.addressExpired': 'This address is not valid (any more): ask for the tileset again.',
  'tileset.archiveTooLarge':
    'The tileset archive is larger than {limitMb} MB (TILESET_UPLOAD_LIMIT_MB).',
  'upload.oneFileField': 'Only one file, in the field “file”, is accepted.',
  'upload.fileOrUploadId': 'Required (or upload_id of a resumable upload)',
  // basemaps
  'basemap.archiveTooLarge': 'The basemap is larger than {limitMb} MB (BASEMAP_UPLOAD_LIMIT_MB).',
  'basemap.notPmtiles':
    'A basemap must be a PMTiles version 3 file (.pmtiles); this file is not one.',
  'basemap.noSuchFile': 'No such basemap file in this project',
  'basemap.fileNotFound': 'This basemap file does not exist.',
  'basemap.inUse': 'This basemap is in use: choose another basemap first.',
  'gisModel.notFound': 'This GIS model does not exist.',
  'gisModel.noSuchTileset': 'No such oblique photography in this project',
  // drawings: areas and paths (issue 18)
  'draw.notFound': 'This drawing does not exist.',
  'draw.colorFormat': 'A colour is written #RRGGBB or #RRGGBBAA',
  'draw.displayMode':
    'A display mode is 0 (hide all), 1 (node and path), 2 (node only) or 3 (path only).',
  'draw.pointFormat': 'A point is written [longitude, latitude]',
  'draw.tooFewPoints': 'This shape needs at least {min} points; it has {count}.',
  'draw.tooManyPoints': 'This shape takes at most {max} points; it has {count}.',
  'draw.coordinateOutOfRange':
    'Point {number} is out of range: longitude must lie within −180…180 and latitude within −90…90.',
  'draw.circleRadiusOutOfRange':
    'A circle needs a radius above 0 m and at most {maxKilometers} km.',
  'draw.polygonTooWide': 'A polygon must lie within {maxDegrees}° of its centre.',
  'draw.polygonSelfIntersecting':
    'The polygon crosses itself (edges {edgeA} and {edgeB}); self-intersecting polygons are refused. Move a point so that no edges cross.',
  'draw.polygonWithoutArea': 'The polygon has no area.',
  'draw.pathType': 'A path is a polyline or inflection points.',
  // fences and GPS positioning (issue 18)
  'tracking.fenceType': 'Only a circle or a polygon can be a fence.',
  'tracking.objectNotFound': 'This positioned object does not exist.',
  'tracking.unknownToken': 'Unknown device token.',
  'tracking.futureTimestamp':
    'The position is timed {seconds} s in the future; check the device clock.',
  'tracking.categoryNotLocation':
    'A location POI is filed under a category of the location tree; this one is not, or is not yours.',
  'tracking.codingTaken': 'Another location POI of this project has the coding {coding}.',
  'tracking.badReport':
    'A position report is JSON with lng (−180…180), lat (−90…90), optional heading (0…360) and ts (epoch ms or ISO time).',
  // anchor points (issue 18, contract/location.ts)
  'location.anchorNotFound': 'This anchor point does not exist.',
  'location.tooManyAnchors': 'A model keeps at most {maximum} anchor points; delete some first.',
  'location.targetNotFound':
    'The anchor points must belong to a tileset of this city project, or to the model of a building project.',
  // the model library of city and building projects (issue 21, contract/city-models.ts)
  'cityModel.notFound': 'This model does not exist.',
  'cityModel.unreadable': '{file} could not be read as a glTF, GLB or SBM model.',
  'cityModel.oneModel':
    'Upload one model (.glb, .sbm, or .gltf with its .bin and images); this upload has {count}.',
  'cityModel.placeOnMap': 'A model of a city project needs a longitude and a latitude.',
  'cityModel.tooMany': 'A project keeps at most {maximum} library models.',
  'cityModel.noSuchAnimation': 'This model has {count} animations.',
  // the city's view tour (issue 18, contract/view-tour.ts)
  'tour.viewpointNotFound': 'This viewpoint does not exist.',
  'tour.tooManyViewpoints': 'A view tour keeps at most {maximum} viewpoints; delete some first.',
  // building models, structures and conversion
  'model.notValidSbm': 'Failed to load a model, not a valid SBM file!',
  'model.notFound': 'This model does not exist.',
  'model.duplicateName': 'Two models are named {name}; names must be unique.',
  'model.oneStructure': 'Upload one building structure .json file at a time.',
  'model.structureNotJson': 'The building structure must be a .json file.',
  'model.structureTooLarge': 'The building structure file is larger than 1 MB.',
  'model.structureInvalidJson': '{name} is not valid JSON.',
  'model.floorIdTwice': 'The floor id {floorId} is used twice.',
  'model.oneSbmToReplace': 'Upload one .sbm file to replace a model.',
  'model.noSuchFloor': 'No such floor in this project',
  'model.paidProject': 'Models cannot be deleted once the project is paid.',
  'model.noSuchConverted': 'No such converted model',
  'model.oneGltf': 'Upload one .glb file, or one .gltf file with its .bin and image files.',
  'model.oneDaeOrFbx': 'Upload exactly one .dae or .fbx file to convert.',
  'model.onlyDaeOrFbx': 'Only a .dae or .fbx file can be converted here.',
  'model.duplicateFile': 'Two files are named {name}.',
  'convert.unsupportedInput':
    '{file} is not a model this converter reads: use .glb, .gltf, .dae or .fbx.',
  'convert.unsupportedGltfVersion':
    '{file} uses a glTF version this converter does not read: convert it to glTF 2.0 first.',
  'convert.missingResources':
    'Files the model refers to are missing: {names}. Upload them next to {file}.',
  'convert.unsupportedExtensions':
    'The model requires glTF extensions this converter cannot decode: {names}.',
  'convert.unsupportedEncoding': 'The text encoding of {file} cannot be read.',
  'convert.unsupportedTextures':
    'Textures in a format browsers cannot show: {names}. Use PNG, JPEG or WebP.',
  'convert.unreadableModel': '{file} could not be read as a model.',
  'convert.noMeshes': 'The model has no triangle meshes, so there is nothing to show.',
  'convert.timedOut': 'The conversion took longer than {seconds} s and was stopped.',
  'convert.busy': 'The model converter is busy with other uploads; please try again in a minute.',
  // floor archives, conversion queue, GML, resumable uploads, regions, health
  'model.zipTooManyModels': '{name} holds {count} models; at most {max} per upload.',
  'model.zipRefused': '{name} cannot be used: it is not a readable, safe zip archive.',
  'convert.shuttingDown': 'The model converter is shutting down.',
  // conversion warnings: the model was converted, with something the user may want to know
  'convert.daeReadAsUtf8': 'The DAE file was UTF-16 and was read as UTF-8.',
  'convert.exportDroppedAnimations': 'Animations were dropped to export the model.',
  'convert.texturesConvertedToPng': 'Textures converted to PNG: {names}.',
  'convert.textureMissing': 'The texture {name} is missing; its material is left untextured.',
  'convert.animationsDropped': 'Animations dropped (an SBM is static): {count}.',
  'convert.skinnedMeshesAtBindPose': 'Skinned meshes kept in their bind pose: {count}.',
  'convert.morphTargetsDropped': 'Morph targets dropped (an SBM keeps the base shape): {count}.',
  'gml.buildingOnly': 'A GML path belongs to a building project, not a city.',
  'gml.empty': 'The GML file is empty.',
  'gml.tooLarge': 'The GML file is larger than {limitMb} MB.',
  'gml.loadFailed': 'Failed to load GML file.',
  'gml.noFile': 'There is no GML file.',
  'gml.oneFileField': 'Only one file field, “file”, is accepted.',
  'gml.uploadIdOrFile': 'Required (or send the file as multipart).',
  'upload.notResumableId': 'Not the id of a resumable upload.',
  'upload.busy': 'This upload is already being processed by another request.',
  'upload.gone': 'This upload does not exist (any more); upload the file again.',
  'upload.unfinished': 'This upload is not finished: {received} of {total} bytes received.',
  'upload.unfinishedUnknownSize': 'This upload is not finished: {received} bytes received so far.',
  'upload.filesOrUploadId': 'Send either files or an upload_id, not both.',
  'region.notFound': 'No region has the code {code}.',
  // orders and points (SPEC §8 gives the unpaid-order texts exactly)
  'order.unpaidOrderExists':
    'You cannot generate a new order due to an uncompleted order! Please go to the order center to pay or delete the order!',
  'order.unpaidBlocksDownload': 'You have an order not paid...',
  'order.notFound': 'This order does not exist.',
  'order.foreign': 'This order belongs to another user.',
  'order.alreadyPaid': 'This order has already been paid.',
  'order.cancelled': 'This order was deleted.',
  'order.notUnpaid': 'Only an unpaid order can be deleted.',
  'order.balanceTooLow':
    'Your balance ({balance}) does not cover this order ({total}). Please recharge first.',
  'order.payKeyReused': 'This idempotency key already paid another order.',
  'order.lineNotInProject': 'A chosen line is not a line of this project.',
  'order.duplicateLine': 'A line was chosen twice.',
  'order.noLines': 'Choose at least one line.',
  'order.contactUs': 'This line is priced on request: please contact us.',
  'order.trialIsExclusive': 'The development trial cannot be ordered with other lines.',
  'order.trialNotOrdered': 'The development trial is free: download the package directly.',
  'order.oneSupportOption': 'Choose exactly one service support option.',
  'order.countNotAdjustable': 'Only the years of service support can be chosen.',
  'order.nothingToPay': 'The chosen lines cost nothing: there is nothing to order.',
  'order.alreadyOwned': 'This line is already paid for this project.',
  'order.everyoneAdminOnly': "Only an admin may list everyone's orders and recharges.",
  'recharge.notFound': 'No recharge has this code or id.',
  'recharge.foreign': 'This recharge belongs to another user.',
  'recharge.alreadyConfirmed': 'This recharge has already been confirmed.',
  'recharge.cancelled': 'This recharge was cancelled.',
  'recharge.notPending': 'Only a pending recharge can be cancelled.',
  'recharge.tooManyPending':
    'You have {count} recharges waiting for confirmation: wait for them or cancel one.',
  'recharge.keyReused': 'This idempotency key was already used for a different recharge.',
  'price.notFound': 'No price item has this id.',
  'recharge.tooManyGuesses':
    'Too many unknown recharge codes were tried. Please wait a while before trying again.',
  'payment.unknownProvider': 'No payment provider has this name.',
  'payment.badSignature': 'The payment notification is not signed by the payment provider.',
  'payment.amountMismatch': 'The paid amount does not match the recharge.',
  'offlinePackage.failed': 'The offline package could not be built. Please try again.',
  'offlinePackage.stopped': 'Building the offline package was stopped.',
  'offlinePackage.busy':
    'The server is busy building other packages; please try again in a minute.',
  'offlinePackage.tooLarge': 'The offline package would be larger than 4 GB and cannot be built.',
  'offlinePackage.interrupted':
    'Building the offline package was interrupted by a server restart. Please build it again.',
  'offlinePackage.notReady': 'The offline package is not ready yet.',
  'offlinePackage.cancelled': 'Building the offline package was cancelled. You can build it again.',
  'offlinePackage.notBuilding': 'This offline package is no longer being built: nothing to cancel.',
  'offlinePackage.notFound': 'This project has no offline package with this id.',
  'offlinePackage.badPath': "This file is not one of the project's offline files.",
  'offlinePackage.addressExpired':
    'This download address has expired. Open the download page again.',
  'system.databaseDown': 'The database does not answer.',
  // input checks named in contract schemas (zod messages written as ids)
  'input.jsonObject': 'Expected a JSON object',
  'input.propertiesTooLarge': 'At most 64 KB of properties',
  'input.httpAddress': 'Expected an http:// or https:// address',
  'input.requiredForOnline': 'Required for an online basemap',
  'input.requiredForPmtiles': 'Required for a PMTiles basemap',
  'input.divisionCode': 'Expected a division code',
  'input.divisionCodeOrZero': 'Expected 0 or a division code',
  'input.resumableUploadId': 'Expected the id of a resumable upload (32 hex digits)',
  'input.menuKey': 'A menu key has 1 to 64 letters, digits, dots, _ or -.',
  'input.roleNameRequired': 'Please enter the role name.',
  'input.roleNameTooLong': 'The role name may have at most 64 characters.',
  'input.tooManyMenuKeys': 'At most 200 menu keys.',
  'input.phone': 'This is not a phone number.',
  'input.email': 'This is not an e-mail address.',
  'input.userNameRequired': 'Please enter a user name.',
  'input.userNameTooLong': 'The user name may have at most 64 characters.',
  'input.userNameSpaces': 'The user name may not contain spaces.',
  'input.dateFormat': 'Use the form YYYY-MM-DD.',
  'input.dateMissing': 'This date does not exist.',
  'input.avatarUploaded': 'The avatar must be an image uploaded with /upload/uploadJpg.',
  'input.currentPasswordRequired': 'Please enter your current password.',

  // building models (floor and shell uploads, floors)
  'building.modelFileNotAccepted':
    '{file} cannot be used here: upload .sbm, .glb, .gltf (with its .bin and images), .dae or .fbx files, or one .zip of them.',
  'building.zipHasNoModel': '{file} holds no model (.sbm, .glb, .gltf, .dae or .fbx).',
  'building.zipEntryNotSbm': '{entry} in {file} is not a valid SBM file.',
  'building.conversionRefused': '{file} could not be converted to a building model.',
  'building.oneZipOnly': 'Upload either model files or one ZIP, not both or several ZIPs.',
  'building.oneShellModel': 'The shell is one model, or one building structure .json.',
  'building.floorNotFound': 'This floor does not exist.',

  // POI categories and templates (contract/templates.ts)
  'template.categoryNameRequired': 'please fill in the category name',
  'template.piddesFormat': 'Expected category ids separated by commas',
  'template.codeFormat': 'The encoding may hold letters, digits, _, - and . only.',
  'template.propertyColumnFormat':
    'The name must start with a letter or _ and hold only letters, digits and _.',
  'template.categoryNotFound': 'This category does not exist.',
  'template.categoryRoot': 'The 2D and 3D root categories cannot be changed or deleted.',
  'template.categorySystem': 'Only an administrator may change a shared category.',
  'template.categoryCycle':
    'A category cannot be moved under itself or one of its own sub-categories.',
  'template.categoryTooDeep': 'Categories may be nested at most {maximum} levels deep.',
  'template.categoryTreeChange':
    'A category cannot move between the POI categories and the location categories.',
  'template.categoryInUse':
    'This category is used by {templates} template(s) and {pois} POI(s), so it cannot be deleted.',
  'template.categoryNameTaken': 'A category named {name} already exists here.',
  'template.notFound': 'This template does not exist.',
  'template.library': 'Library templates cannot be changed; copy the template to change it.',
  'template.codeTaken': 'The encoding {code} is already used by another of your templates.',
  'template.inUse':
    'This template is used by POIs in these projects: {projects}. It cannot be deleted.',
  'template.fillBasic': 'Please fill in the basic attributes.',
  'template.noSuchIcon': 'No such uploaded image.',
  'template.noSuchCategoryPath': 'This category path does not name a 2D or 3D category of yours.',
  'template.notMultiLevel': 'This template is not a multi-level template.',
  'template.addBasicFirst': 'Please add the basic attributes first.',
  'template.propertyNotFound': 'This static attribute does not exist.',
  'template.propertyColumnTaken': 'This template already has an attribute named {column}.',
  'template.tooManyProperties': 'A template has at most {maximum} static attributes.',
  'template.labelNotFound': 'This label does not exist.',
  'template.labelTaken': 'This template already has the label {label}.',
  'template.tooManyLabels': 'A template has at most {maximum} labels.',
  'template.poiNotFound': 'This POI does not exist.',

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

  // 3D template models (zip uploads) and the batch-POI template file (issue 15)
  'templateModel.onlyZip': 'Only zip can be uploaded.',
  'templateModel.chooseZip': 'Choose a zip file holding the 3D model.',
  'templateModel.tooLarge': 'The zip is larger than {limitMb} MB.',
  'templateModel.oneModel': '{file} holds {count} models; a 3D template is made from one.',
  'templateModel.onlyGltf':
    '{file} is not a glTF model: this upload takes a zip with a .glb or .gltf.',
  'templateModel.conversionRefused': '{file} could not be converted to a 3D template model.',
  'templateModel.notFound': 'This 3D template model does not exist.',
  'poiBatch.selectCategory': 'Select the POI category',
  'poiBatch.chooseFile': 'Choose the filled batch-POI file (.xlsx).',
  'poiBatch.tooLarge': 'The batch-POI file is larger than {limitMb} MB.',
  'poiBatch.notXlsx': 'The file is not an Excel workbook (.xlsx).',
  'poiBatch.unsafeFile':
    'The workbook cannot be read safely: it is damaged or expands far beyond its size.',
  'poiBatch.wrongColumns':
    "The columns do not match this category's batch file: missing {missing}; unknown {unknown}. Download the file again.",
  'poiBatch.tooManyRows': 'The file has more than {max} POI rows; split it into several files.',
  'poiBatch.noRows': 'The file has no POI rows.',
  'poiBatch.rowErrors': '{count} cell(s) need fixing; nothing was imported.',
  'poiBatch.formula': 'Formulas are not accepted; enter the value itself.',
  'poiBatch.notAValue': 'Enter plain text or a number.',

  // POIs (issue 16)
  'poi.notFound': 'This POI does not exist.',
  'poi.selectCategory': 'Select the POI category',
  'poi.selectFloor': 'Select the floor which the POI is placed.',
  'poi.parentCycle': 'Unable to link parent POI.',
  'poi.alreadyLinked': 'Already linked.',
  'poi.tooManyInList': 'One call takes at most {max} POIs; this one has {count}.',
  'poi.notYours': 'Some of these POIs are not yours or do not exist; nothing was changed.',
  'poi.devicecodeTaken':
    'The device code {devicecode} is already used by another POI of this project.',
  'poi.devicecodeRepeated': 'The device code {devicecode} is given to more than one POI.',
  'poi.longitudeRange': 'The longitude must be between -180 and 180.',
  'poi.latitudeRange': 'The latitude must be between -90 and 90.',
  'poi.heightRange': 'The height must be between {min} and {max} metres.',
  'poi.sceneRange': 'The coordinates must be between {min} and {max} metres.',
  'poi.floorNotFound': 'This floor is not a floor of the project.',
  'poi.parentNotFound': 'The parent POI is not a POI of this project.',
  'poi.modelNotFound': 'This model is not a model of the project.',
  'poi.sourceNotFound': 'The POI to copy is not a POI of this project.',
  'poi.distanceOrder': 'The minimum view distance must not exceed the maximum.',
  'poi.templateNotUsable': 'This template does not exist or is not yours.',
  // texts of the seeded project cases (server/modules/projects/project-cases.ts), answered as
  // `name_key`, `description_key` and `detailedaddress_key` while a case keeps its seeded text
  'case.dragon.name': 'Dragon tileset (3D Tiles)',
  'case.dragon.description': 'A georeferenced 3D Tiles 1.0 tileset with two levels of detail.',
  'case.dragon.address': 'Exton, Pennsylvania, United States',
  'case.house.name': 'House (SBM building)',
  'case.house.description':
    'A one-floor house model converted to SBM, with its building structure.',
  'case.house.address': 'Seoul, South Korea',
  // names of the seeded library (server/modules/templates/library-names.ts): the server answers
  // these ids as `name_key`, so a seeded template reads in the user's language
  'library.template.camera2d': 'Camera (2D)',
  'library.template.temperatureSensor': 'Temperature sensor',
  'library.template.fireExtinguisherBox2d': 'Fire extinguisher box (2D)',
  'library.template.smokeDetector': 'Smoke detector',
  'library.template.ceilingLight': 'Ceiling light',
  'library.template.camera3d': 'Camera (3D)',
  'library.template.sensor3d': 'Sensor (3D)',
  'library.template.fireExtinguisherBox3d': 'Fire extinguisher box (3D)',
  'library.category.security': 'Security',
  'library.category.cameras': 'Cameras',
  'library.category.sensors': 'Sensors',
  'library.category.fireSafety': 'Fire safety',
  'library.category.lighting': 'Lighting',
  'library.category.devices': 'Devices',
  'modelCopy.tooManyPois':
    'These copies would create {count} POIs; one copy call creates at most {max}.',
  'modelCopy.outOfRange': 'Copy {copy} would move a POI off the map (latitude or height range).',
  'poiBatch.chooseFileOrCsv': 'Choose the filled batch-POI file (.xlsx or .csv).',
  'poiBatch.fileNotFound': 'This batch-POI file does not exist.',
  'poiBatch.notCsv': 'The file is neither an Excel workbook (.xlsx) nor a CSV text file.',
  'poiBatch.csvQuote': 'A quoted CSV value is not closed.',
  // IoT devices, ingest, time series and alarms (issue 17, contract/iot.ts)
  'iot.deviceNotFound': 'This device does not exist.',
  'iot.poiHasDevice': 'This POI already has a device; rotate its token instead.',
  'iot.poiNoDevicecode': 'This POI has no device code: set one before provisioning a device.',
  'iot.devicecodeTaken': 'A device with the code {devicecode} already exists in this project.',
  'iot.unknownToken': 'This device token is unknown or has been revoked.',
  'iot.bodyTooLarge': 'The body is larger than {maximum} bytes.',
  'iot.notJsonObject': 'Send a JSON object, or a list of objects with ts and values.',
  'iot.tooManyKeys': 'One message may hold at most {maximum} keys; this one has {count}.',
  'iot.tooManyMessages': 'One request may hold at most {maximum} messages; this one has {count}.',
  'iot.tooManyPoints': 'One request may hold at most {maximum} values; this one has {count}.',
  'iot.badKey': 'A key has 1 to {maximum} characters and no control characters.',
  'iot.valueNotNumber':
    'The value of {key} is not a number: telemetry takes numbers (or true/false); send text as an attribute.',
  'iot.valueNotFinite': 'The value of {key} is not a finite number.',
  'iot.badTimestamp':
    'ts must be a time in milliseconds since 1970, at most a day ahead of the server.',
  'iot.attributeTooLong': 'The attribute {key} is longer than {maximum} characters of JSON.',
  'iot.badStatus': 'The status must be a device status code: 0, 1, 2, 3, 11, 31 or 41.',
  'iot.deviceRateLimited':
    'This device sends too often (at most {perSecond} requests per second); wait {seconds} s.',
  'iot.nameTheDevice': 'Name the device: device_id, the POI id, or projectid and devicecode.',
  'iot.rangeOrder': 'startTs must be before endTs.',
  'iot.intervalRequired': 'An aggregation needs an interval in milliseconds.',
  'iot.tooManyBuckets': 'This range and interval make {count} buckets; at most {maximum}.',
  'alarm.notFound': 'This alarm record does not exist.',
  'alarm.notAlarmCode': 'Alarms are raised by the codes 3, 11, 31 and 41.',
  'alarm.alreadyAcknowledged': 'This alarm has already been acknowledged.',
  'alarm.alreadyCleared': 'This alarm has already been cleared.',
  'alarm.nameTheDevice': 'Name the device: device_id, or its POI (poi_id).',
  'iot.tooManyStreams': 'At most {maximum} live streams may be open at once; close another tab.',
  'eventLink.notFound': 'This event link does not exist.',
  'eventLink.targetNotFound': 'The linked POI or area does not exist in this project.',
  'eventLink.tooDeep': 'A linkage chain may be at most {maximum} levels deep.',
  'eventLink.tooMany': 'One POI may have at most {maximum} links.',
  'investigation.notFound': 'This inspection record does not exist.',
  'investigation.nameTheSubject': 'Name what was inspected: an alarm (alarm_id) or a POI (poi_id).',
  'investigation.poiNotOfAlarm': 'This POI is not the POI of the alarm.',
  'investigation.inFuture': 'The inspection time may not be in the future.',
  'investigation.tooMany': 'One alarm or POI may have at most {maximum} inspection records.',
  'investigation.photoNotFound': 'A photo must be an image you uploaded for this project.',
  'investigation.duplicatePhoto': 'The same photo is listed twice.',

  // global style setting (issue 19, contract/style.ts)
  'style.colorMalformed': 'Expected a colour written as rgba(red, green, blue, alpha).',
  'style.colorOutOfRange':
    'Colour values are out of range: red, green and blue are whole numbers 0 to 255, alpha 0 to 1.',
  'style.unsupportedVersion':
    'This style setting was written by another version of the product (version 1 is read here).',
  'style.storedVersionUnsupported':
    'The saved style setting was written by another version of the product; it cannot be read here.',
  'style.distanceOrder': 'The minimum visual distance must not exceed the maximum.',
  'style.alreadySaved': 'This project already has a style setting; change it with update.',

  // surveillance video (issue 17, contract/video.ts; SPEC §8 video messages)
  'video.oldBrowser': 'not supported on IE8 or older',
  'video.noSource': 'no source found',
  'video.noSuitablePlayUrl': 'no suitable play URL',
  'video.cannotPlay': 'cannot be played now, try later',
  'video.unsafeStreamUrl':
    'This stream address cannot be played: use an http(s) address of an HLS (.m3u8) or FLV stream.',
  // model configuration tools (issue 21, contract/model-config.ts)
  'modelConfig.mergeInputsMissing':
    'The merge needs a shell model, shell maps, floor models, floor maps, a preview image and an output file name; {count} of them are missing.',
  'modelConfig.needShellModel': 'Add the shell model.',
  'modelConfig.needShellMaps': 'Add the shell maps.',
  'modelConfig.needFloorModels': 'Add the floor models.',
  'modelConfig.needFloorMaps': 'Add the floor maps.',
  'modelConfig.needPreview': 'Add a preview image.',
  'modelConfig.needOutputName': 'Enter an output file name.',
  'modelConfig.oneShellModel': 'The shell is one model file.',
  'modelConfig.notAModel': '{name} is not a model (.sbm, .dae, .fbx or .glb).',
  'modelConfig.mapNotImage': '{name} is not an image (PNG, JPEG, TGA, BMP, GIF or WebP).',
  'modelConfig.previewNotImage': 'The preview {name} must be a PNG or JPEG image of at most 2 MB.',
  'modelConfig.outputNameInvalid':
    'The output file name may not contain slashes, any of : * ? " < > | or control characters.',
  'modelConfig.floorNameTwice': 'Two floors are named {name}; floor names must be unique.',
  'modelConfig.tooManyFloors': 'At most {max} floor models per merge.',
  'modelConfig.mapUnused': 'No model refers to the map {name}; the merge went on without it.',
  'modelConfig.noSuchMerge': 'This merge does not exist or has expired.',
  'modelConfig.addNothing': 'Choose a shell model or at least one floor model to add.',
  'modelConfig.noSuchAdd': 'This structure add does not exist or has expired.',
  'modelDetail.notFound': 'These model details do not exist.',
  'modelDetail.exists': 'This model has details already; change them instead.',
  'modelDocument.notFound': 'This document does not exist.',
  'modelDocument.badName':
    'The file name {name} is refused: use a plain name without folders, control or direction characters or any of : * ? " < > |, of at most {max} characters.',
  'modelDocument.typeNotAccepted':
    '{name} is not accepted: attach PDF, PNG, JPEG, GIF, WebP, Word, Excel, PowerPoint or OpenDocument files.',
  'modelDocument.contentMismatch': '{name} is not a real {kind} file.',
  'modelDocument.archiveRefused':
    '{name} is refused: its packed parts are damaged, too large, or expand like a zip bomb.',
  'modelDocument.imageTooLarge':
    '{name} declares {width} × {height} pixels; images of up to {maxSide} × {maxSide} are accepted.',
  'modelDocument.nameTaken': '{name} is attached already; delete it first to attach a new version.',
  'modelDocument.tooMany': 'A model keeps at most {max} documents.',
  'material.notFound': 'This material does not exist.',
  'material.mapNotFound': 'The texture {name} was not uploaded through the texture upload.',
  'material.textureTooLarge': 'The texture is larger than {maxBytes} bytes.',
  // visit mode: captures (issue 19, contract/visit.ts)
  'visit.captureNotPng': 'A capture must be a PNG image.',
  'visit.captureTooLarge': 'A capture image may be at most {maximum} MB.',
  'visit.captureTooManyPixels': 'The capture declares {width} × {height} pixels, too many to show.',
  'visit.tooManyCaptures': 'A project keeps at most {maximum} captures; delete some first.',
  'visit.captureNotFound': 'This capture does not exist (it may have been deleted).',
  'visit.captureNotInProject': 'The capture {id} does not belong to this project.',
  'visit.sequenceIncomplete': 'Name each of the project’s {count} captures exactly once.',
  'case.notFound': 'This case does not exist (it may have been removed).',
  'case.menuNotFound': 'This case category does not exist.',
  'case.alreadyCase': 'This project is already in the case gallery.',
  'case.noSuchCover': 'The cover must be an image uploaded as a cover.',
  'case.tooManyMenus': 'The gallery keeps at most {maximum} categories.',
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

/** The ids whose template has no placeholders (e.g. for rate limits named ahead of time). */
export type PlainMessageId = {
  [Id in MessageId]: HasParams<Id> extends true ? never : Id
}[MessageId]

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

/** A message with its parameters, checked like `new AppError(kind, id, params)`. */
export function serverMessage<Id extends MessageId>(
  id: Id,
  ...args: HasParams<Id> extends true ? [params: MessageParams<Id>] : []
): ServerMessage {
  return { id, params: (args[0] ?? {}) as Record<string, MessageParam> }
}

/**
 * A zod message written as a catalogue id (`.min(1, zodMessage('input.userNameRequired'))`):
 * the server's validation answer carries the id, so the console translates it.
 */
export function zodMessage(id: PlainMessageId): string {
  return id
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
