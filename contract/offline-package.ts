import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { webRoute } from './route'

/**
 * The offline package of a project (issue 20 item 6, SPEC §2 `/bim4/download`, §7
 * `/bimBiz/checkSbkDownloadState` and `/bimBiz/getSbkFile`, decisions.md "Formats"): one zip of
 * the project's scene, built in the background once the project may download it.
 */

/** 'full' for a paid (VIP) project; 'trial' is the development trial's watermarked package. */
export const packageVariants = ['full', 'trial'] as const
export type PackageVariant = (typeof packageVariants)[number]

export const packageStates = ['building', 'ready', 'failed', 'superseded'] as const
export type PackageState = (typeof packageStates)[number]

/** The raw download address (not an envelope route: it answers the zip's bytes). */
export const getSbkFilePath = '/web/bimBiz/getSbkFile'

/** One build of a package as the download page shows it. */
export const offlinePackageSchema = z.object({
  id: recordIdSchema,
  state: z.enum(packageStates),
  variant: z.enum(packageVariants),
  is_watermarked: z.boolean(),
  /** 0–1 while building (null before the first report), 1 when ready. */
  progress: z.number().min(0).max(1).nullable(),
  size_bytes: z.number().int().nullable(),
  entry_count: z.number().int().nullable(),
  /** Why a build failed: a catalogue id the console renders in the user's language. */
  error_message_id: z.string().nullable(),
  created_at: timestampSchema,
  finished_at: timestampSchema.nullable(),
  /**
   * The signed `getSbkFile` address of a ready package the caller may download (Range
   * requests resume it), or null.
   */
  download_url: z.string().nullable(),
  /** The file name the package is saved under. */
  file_name: z.string(),
})
export type OfflinePackage = z.infer<typeof offlinePackageSchema>

/**
 * `checkSbkDownloadState`: which package the project may download now — 'full' (paid),
 * 'trial' (not paid: the watermarked development trial), or 'none' while an order is unpaid
 * (`unpaid_order_id`) — and its newest build.
 */
export const downloadStateSchema = z.object({
  project_id: recordIdSchema,
  is_paid: z.boolean(),
  allowed: z.enum(['full', 'trial', 'none']),
  unpaid_order_id: recordIdSchema.nullable(),
  package: offlinePackageSchema.nullable(),
})
export type DownloadState = z.infer<typeof downloadStateSchema>

export const downloadStateBodySchema = z.object({ project_id: recordIdSchema })

/** `buildSbkFile`: starts a build (or answers the one running); the variant the project may have. */
export const buildPackageBodySchema = z.object({
  project_id: recordIdSchema,
  variant: z.enum(packageVariants).optional(),
})

/**
 * `getSbkFile` query: `reqPaths` names the file among the project's offline files (the package
 * zip, `<package id>.zip`); `enController` '1' (default) saves it as an attachment, '0' opens it
 * inline. `grant` is the signed part of `download_url` (a plain link carries no token header).
 */
export const getSbkFileQuerySchema = z.object({
  project_id: recordIdSchema,
  reqPaths: z.string().min(1).max(200),
  enController: z.enum(['0', '1']).optional(),
  grant: z.string().max(400).optional(),
})

/** `cancelSbkBuild`: stops a build of the project's package (the id of the build shown). */
export const cancelPackageBodySchema = z.object({
  project_id: recordIdSchema,
  package_id: recordIdSchema,
})

const downloadTags = ['bimBiz']

/** The /web/bimBiz/ envelope routes of the offline package. */
export const offlinePackageRoutes = {
  checkSbkDownloadState: webRoute({
    method: 'POST',
    path: '/web/bimBiz/checkSbkDownloadState',
    auth: 'editor',
    summary: 'Whether a project may download its offline package, and how far its build has got',
    tags: downloadTags,
    body: downloadStateBodySchema,
    datum: downloadStateSchema,
  }),
  buildSbkFile: webRoute({
    method: 'POST',
    path: '/web/bimBiz/buildSbkFile',
    auth: 'editor',
    summary: "Build the project's offline package in the background (joins a running build)",
    description:
      'A paid project builds the full package, any other the watermarked trial; refused while ' +
      'an order of the project is unpaid. Progress is read with checkSbkDownloadState.',
    tags: downloadTags,
    body: buildPackageBodySchema,
    datum: offlinePackageSchema,
  }),
  cancelSbkBuild: webRoute({
    method: 'POST',
    path: '/web/bimBiz/cancelSbkBuild',
    auth: 'editor',
    summary: "Cancel a running build of the project's offline package",
    description:
      'The build ends as failed with offlinePackage.cancelled, whichever process runs it; a new ' +
      'build may start at once. Refused (conflict) once the build has ended.',
    tags: downloadTags,
    body: cancelPackageBodySchema,
    datum: offlinePackageSchema,
  }),
}
