import {
  type DownloadState,
  type OfflinePackage,
  offlinePackageRoutes,
  type PackageVariant,
} from '../../contract/offline-package'
import { api } from './index'

export type { DownloadState, OfflinePackage, PackageVariant } from '../../contract/offline-package'

/** `POST /web/bimBiz/checkSbkDownloadState`: what the project may download and its newest build. */
export async function checkDownloadState(projectId: string): Promise<DownloadState> {
  return (await api.call(offlinePackageRoutes.checkSbkDownloadState, { project_id: projectId }))
    .datum
}

/** `POST /web/bimBiz/buildSbkFile`: starts building the package (or joins the running build). */
export async function buildOfflinePackage(
  projectId: string,
  variant?: PackageVariant,
): Promise<OfflinePackage> {
  return (
    await api.call(offlinePackageRoutes.buildSbkFile, {
      project_id: projectId,
      ...(variant === undefined ? {} : { variant }),
    })
  ).datum
}

/**
 * `POST /web/bimBiz/cancelSbkBuild`: stops the running build `packageId`; answers the build,
 * now failed with `offlinePackage.cancelled`.
 */
export async function cancelOfflinePackageBuild(
  projectId: string,
  packageId: string,
): Promise<OfflinePackage> {
  return (
    await api.call(offlinePackageRoutes.cancelSbkBuild, {
      project_id: projectId,
      package_id: packageId,
    })
  ).datum
}
