import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { ApiError } from '../../api/client'
import { navigateHash } from '../../app/hash-location'
import {
  buildOfflinePackage,
  cancelOfflinePackageBuild,
  checkDownloadState,
  type DownloadState,
  type OfflinePackage,
} from '../../api/offline-package'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { serverMessageText } from '../../components/feedback/server-messages'
import { Button, confirm, Dialog, ErrorState, formatFileSize, Spinner, toast } from '../../ui'
import { OrderDialog, orderDetailsPath } from './OrderDialog'
import { UsageChart } from './UsageChart'
import './orders.css'

/** How often the panel asks again while a build runs. */
const buildPollMs = 1_000

/** Props of {@link OfflinePackagePanel}. */
export interface OfflinePackagePanelProps {
  projectId: string
  projectName: string
}

/**
 * The offline file (SPEC §2 `/bim4/download`, issue 20 item 6): whether the project may
 * download its package (paid: the full package; not paid: the watermarked development trial;
 * an unpaid order: nothing, with the §8 message), the order dialog, the background build with
 * its progress and a Cancel button (issue 22 item 3), and the download of the ready zip.
 */
export function OfflinePackagePanel({ projectId, projectName }: OfflinePackagePanelProps) {
  const { t } = useLingui()
  const [state, setState] = useState<DownloadState | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [reload, setReload] = useState(0)
  const [isStarting, setIsStarting] = useState(false)
  const [isOrdering, setIsOrdering] = useState(false)
  const [isCancelling, setIsCancelling] = useState(false)

  // `reload` is a dependency on purpose: a finished order, a started build or Retry bump it
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    let isCurrent = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const load = () => {
      checkDownloadState(projectId)
        .then((loaded) => {
          if (!isCurrent) return
          setState(loaded)
          setLoadError(null)
          // a build in progress: ask again until it has ended
          if (loaded.package?.state === 'building') timer = setTimeout(load, buildPollMs)
        })
        .catch((error: unknown) => {
          if (isCurrent) setLoadError(error)
        })
    }
    load()
    return () => {
      isCurrent = false
      clearTimeout(timer)
    }
  }, [projectId, reload])

  async function startBuild() {
    setIsStarting(true)
    try {
      await buildOfflinePackage(projectId)
      setReload((count) => count + 1)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsStarting(false)
    }
  }

  async function cancelBuild(packageId: string) {
    const isSure = await confirm({
      type: 'warning',
      message: t`Cancel building the offline package? What it has built so far is discarded; you can build it again afterwards.`,
      confirmLabel: t`Cancel the build`,
      cancelLabel: t`Keep building`,
      isDestructive: true,
    })
    if (!isSure) return
    setIsCancelling(true)
    try {
      await cancelOfflinePackageBuild(projectId, packageId)
    } catch (error) {
      // the build finished while the question was open: no failure, the reload shows the package
      if (error instanceof ApiError && error.envelope?.messageId === 'offlinePackage.notBuilding') {
        toast.info(t`The build had already finished before it could be cancelled.`)
      } else showErrorToast(error)
    } finally {
      setIsCancelling(false)
      setReload((count) => count + 1)
    }
  }

  if (!state) {
    return loadError !== null ? (
      <ErrorState message={errorText(loadError)} onRetry={() => setReload(reload + 1)} />
    ) : (
      <Spinner label={t`Loading the offline package`} />
    )
  }
  const current = state.package
  const isBuilding = current?.state === 'building'
  return (
    <section className="ts-offline-package" aria-label={t`Offline package`}>
      <AllowedText state={state} />
      <div className="ts-offline-package__actions">
        <Button onClick={() => setIsOrdering(true)}>
          <Trans>Order</Trans>
        </Button>
        <Button
          variant="primary"
          onClick={() => void startBuild()}
          isBusy={isStarting}
          disabled={state.allowed === 'none' || isBuilding}
        >
          {state.allowed === 'trial' ? (
            <Trans>Build the trial package</Trans>
          ) : (
            <Trans>Build the offline package</Trans>
          )}
        </Button>
      </div>
      {current && (
        <PackageStatus
          item={current}
          onCancel={() => void cancelBuild(current.id)}
          isCancelling={isCancelling}
        />
      )}
      <UsageChart projectId={projectId} />
      {isOrdering && (
        <OrderDialog
          projectId={projectId}
          projectName={projectName}
          onClose={() => {
            setIsOrdering(false)
            setReload((count) => count + 1)
          }}
          onDirectDownload={() => setIsOrdering(false)}
        />
      )}
    </section>
  )
}

/** What the project may download now, in words. */
function AllowedText({ state }: { state: DownloadState }) {
  if (state.allowed === 'none') {
    return (
      <p className="ts-order-dialog__blocked" role="alert">
        <Trans>You have an order not paid...</Trans>{' '}
        {state.unpaid_order_id !== null && (
          <Button
            variant="ghost"
            onClick={() => navigateHash(orderDetailsPath(state.unpaid_order_id!))}
          >
            <Trans>Open the order</Trans>
          </Button>
        )}
      </p>
    )
  }
  if (state.allowed === 'trial') {
    return (
      <p className="ts-offline-package__note">
        <Trans>
          This project is not paid yet: the development trial builds a watermarked package. Order to
          download the full package.
        </Trans>
      </p>
    )
  }
  return (
    <p className="ts-offline-package__note">
      <Trans>This project is paid: its offline package can be built and downloaded.</Trans>
    </p>
  )
}

/**
 * The newest build: its progress (with its Cancel button), its failure (a cancelled build says
 * so), or the download of the ready zip.
 */
function PackageStatus({
  item,
  onCancel,
  isCancelling,
}: {
  item: OfflinePackage
  onCancel: () => void
  isCancelling: boolean
}) {
  const { t } = useLingui()
  if (item.state === 'building') {
    const percent = Math.round((item.progress ?? 0) * 100)
    return (
      <div className="ts-offline-package__status" role="status">
        <p>
          <Trans>Building the offline package… {percent} %</Trans>
        </p>
        <div className="ts-offline-package__progress">
          <progress max={100} value={percent} aria-label={t`Building the offline package`} />
          <Button onClick={onCancel} isBusy={isCancelling}>
            <Trans>Cancel the build</Trans>
          </Button>
        </div>
      </div>
    )
  }
  if (item.state === 'failed') {
    const reason = serverMessageText({
      code: '1500',
      messageId: item.error_message_id ?? 'offlinePackage.failed',
      params: {},
      datum: null,
    })
    // a build the user cancelled is no error to alarm them with
    if (item.error_message_id === 'offlinePackage.cancelled') {
      return (
        <p className="ts-offline-package__status" role="status">
          {reason}
        </p>
      )
    }
    return (
      <p className="ts-offline-package__status ts-offline-package__status--failed" role="alert">
        {reason}
      </p>
    )
  }
  const size = formatFileSize(item.size_bytes ?? 0)
  const count = item.entry_count ?? 0
  return (
    <div className="ts-offline-package__status" role="status">
      <p>
        <Trans>
          The offline package is ready: {size}, {count} files.
        </Trans>
      </p>
      {item.is_watermarked && (
        <p className="ts-offline-package__note">
          <Trans>This package carries a watermark (watermark removal is not paid).</Trans>
        </p>
      )}
      {item.download_url !== null ? (
        <a
          className="ts-button ts-button--primary"
          href={item.download_url}
          download={item.file_name}
        >
          <Trans>Download the offline package</Trans>
        </a>
      ) : (
        <p className="ts-offline-package__note">
          <Trans>Pay the open order to download this package again.</Trans>
        </p>
      )}
    </div>
  )
}

/** The offline package panel in a dialog, for pages outside the editor (the project list). */
export function OfflinePackageDialog({
  projectId,
  projectName,
  onClose,
}: OfflinePackagePanelProps & { onClose: () => void }) {
  return (
    <Dialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={<Trans>Offline package of {projectName}</Trans>}
      widthPx={560}
    >
      <OfflinePackagePanel projectId={projectId} projectName={projectName} />
    </Dialog>
  )
}
