import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { navigateHash } from '../../app/hash-location'
import {
  deleteOrder,
  getAllOrders,
  newIdempotencyKey,
  type OrderPage,
  type OrderSummary,
  payOrder,
} from '../../api/orders'
import { findProjects, type Project } from '../../api/project'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import {
  Button,
  confirm,
  EmptyState,
  ErrorState,
  Select,
  type SelectOption,
  Spinner,
  TableHead,
  toast,
} from '../../ui'
import { OrderDialog, orderDetailsPath } from './OrderDialog'
import { DateTime, orderStateNames, Points } from './order-text'
import '../system/system.css'
import './orders.css'

/** Rows per page of the order list. */
const ordersPageSize = 10

/**
 * Pays an order after asking, with one idempotency key for the attempt, so a double click or a
 * retried request never charges twice. Resolves true once paid.
 */
export async function payWithConfirmation(
  order: Pick<OrderSummary, 'id' | 'order_no' | 'total'>,
  texts: { question: string; paid: string },
): Promise<boolean> {
  const isConfirmed = await confirm({ type: 'info', message: texts.question })
  if (!isConfirmed) return false
  try {
    await payOrder(order.id, newIdempotencyKey())
    toast.success(texts.paid)
    return true
  } catch (error) {
    showErrorToast(error)
    return false
  }
}

/**
 * `/project/more/orders` (SPEC §2 order manage, "personal orders"): the user's orders across
 * projects, newest first, with pay and delete for unpaid ones, and a new order for a project.
 */
export function OrdersPage() {
  const { t } = useLingui()
  const [pageNo, setPageNo] = useState(1)
  const [page, setPage] = useState<OrderPage | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)

  const load = useCallback(async () => {
    setIsLoading(true)
    try {
      setPage(await getAllOrders({ pageNo, pageSize: ordersPageSize }))
      setLoadError(null)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [pageNo])

  useEffect(() => {
    void load()
  }, [load])

  const pageCount = page ? Math.max(1, Math.ceil(page.total / ordersPageSize)) : 1
  return (
    <section className="ts-orders-page">
      <h1 className="ts-page-title">
        <Trans>Personal orders</Trans>
      </h1>
      <NewOrderPanel onOrdered={load} />
      <div className="ts-system-panel">
        {loadError !== null && !page ? (
          <ErrorState message={errorText(loadError)} onRetry={load} isRetrying={isLoading} />
        ) : !page ? (
          <Spinner />
        ) : page.list.length === 0 ? (
          <EmptyState title={<Trans>No orders yet</Trans>} />
        ) : (
          <OrderTable orders={page.list} onChanged={load} />
        )}
        {page && page.total > ordersPageSize && (
          <nav className="ts-pagination" aria-label={t`Pages`}>
            <Button onClick={() => setPageNo(pageNo - 1)} disabled={pageNo <= 1 || isLoading}>
              <Trans>Previous</Trans>
            </Button>
            <span>
              <Trans>
                Page {pageNo} of {pageCount}
              </Trans>
            </span>
            <Button
              onClick={() => setPageNo(pageNo + 1)}
              disabled={pageNo >= pageCount || isLoading}
            >
              <Trans>Next</Trans>
            </Button>
          </nav>
        )}
      </div>
    </section>
  )
}

/** Choosing a project and opening the order dialog for it. */
function NewOrderPanel({ onOrdered }: { onOrdered: () => void }) {
  const { t } = useLingui()
  const [projects, setProjects] = useState<Project[] | null>(null)
  const [projectId, setProjectId] = useState<string | null>(null)
  const [isDialogOpen, setIsDialogOpen] = useState(false)

  useEffect(() => {
    let isCurrent = true
    findProjects({ pageSize: 100, sort: 'updated_at', order: 'desc' })
      .then((page) => isCurrent && setProjects(page.list.filter((project) => !project.is_case)))
      .catch((error: unknown) => {
        showErrorToast(error)
        if (isCurrent) setProjects([])
      })
    return () => {
      isCurrent = false
    }
  }, [])

  const options: SelectOption[] = (projects ?? []).map((project) => ({
    value: project.id,
    label: project.name,
  }))
  const chosen = projects?.find((project) => project.id === projectId)
  return (
    <div className="ts-system-panel ts-table-toolbar">
      <Select
        label={t`Project`}
        options={options}
        value={projectId}
        onValueChange={setProjectId}
        placeholder={t`Choose a project`}
        disabled={projects === null || projects.length === 0}
      />
      <Button variant="primary" disabled={!chosen} onClick={() => setIsDialogOpen(true)}>
        <Trans>New order</Trans>
      </Button>
      {isDialogOpen && chosen && (
        <OrderDialog
          projectId={chosen.id}
          projectName={chosen.name}
          onClose={() => {
            setIsDialogOpen(false)
            onOrdered()
          }}
        />
      )}
    </div>
  )
}

/** The orders of a page: number, project, state, total, dates and actions. */
export function OrderTable({
  orders,
  onChanged,
}: {
  orders: readonly OrderSummary[]
  onChanged: () => void
}) {
  const { i18n, t } = useLingui()

  async function pay(order: OrderSummary) {
    const orderNo = order.order_no
    const total = order.total.toLocaleString(i18n.locale)
    const isPaid = await payWithConfirmation(order, {
      question: t`Pay ${total} TC for order ${orderNo} from your balance?`,
      paid: t`Order ${orderNo} is paid.`,
    })
    if (isPaid) onChanged()
  }

  async function remove(order: OrderSummary) {
    const orderNo = order.order_no
    const isConfirmed = await confirm({
      type: 'warning',
      message: t`Delete the unpaid order ${orderNo}?`,
      isDestructive: true,
    })
    if (!isConfirmed) return
    try {
      await deleteOrder(order.id)
      toast.success(t`Deleted.`)
      onChanged()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <table className="ts-table">
      <TableHead
        columns={[
          { key: 'order-number', label: <Trans>Order number</Trans> },
          { key: 'project', label: <Trans>Project</Trans> },
          { key: 'state', label: <Trans>State</Trans> },
          { key: 'total', label: <Trans>Total</Trans> },
          { key: 'created', label: <Trans>Created</Trans> },
        ]}
        hasActions
      />
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <th scope="row">
              <a href={`#${orderDetailsPath(order.id)}`}>{order.order_no}</a>
            </th>
            <td>{order.project_name}</td>
            <td>{i18n._(orderStateNames[order.state])}</td>
            <td>
              <Points value={order.total} />
            </td>
            <td>
              <DateTime value={order.created_at} />
            </td>
            <td className="ts-table__actions">
              <Button variant="ghost" onClick={() => navigateHash(orderDetailsPath(order.id))}>
                <Trans>Details</Trans>
              </Button>
              {order.state === 'unpaid' && (
                <>
                  <Button variant="ghost" onClick={() => void pay(order)}>
                    <Trans>Pay</Trans>
                  </Button>
                  <Button variant="ghost" onClick={() => void remove(order)}>
                    <Trans>Delete</Trans>
                  </Button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
