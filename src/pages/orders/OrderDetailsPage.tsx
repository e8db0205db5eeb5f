import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import type { PageProps } from '../../app/page-props'
import { navigateHash } from '../../app/hash-location'
import {
  type AccountDatum,
  deleteOrder,
  getAccount,
  getOrder,
  type OrderDetail,
} from '../../api/orders'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { Button, TableHead, confirm, ErrorState, Spinner, toast } from '../../ui'
import { OrdersPage, payWithConfirmation } from './OrdersPage'
import {
  DateTime,
  orderLineColumns,
  orderStateNames,
  Points,
  unitName,
  useLocalized,
} from './order-text'
import '../system/system.css'
import './orders.css'

/**
 * `/project/more/ordetails?orderId=…` (SPEC §2 "My order"): one order's lines, total and
 * state, with pay (from the balance, shown beside it) and delete while it is unpaid. Without an
 * `orderId` it lists the user's orders to choose from.
 */
export function OrderDetailsPage({ search }: PageProps) {
  const orderId = new URLSearchParams(search).get('orderId')
  if (!orderId) return <OrdersPage />
  return <OrderDetails key={orderId} orderId={orderId} />
}

function OrderDetails({ orderId }: { orderId: string }) {
  const { i18n, t } = useLingui()
  const localized = useLocalized()
  const [order, setOrder] = useState<OrderDetail | null>(null)
  const [account, setAccount] = useState<AccountDatum | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)

  const load = useCallback(async () => {
    setIsLoading(true)
    try {
      const [loaded, balance] = await Promise.all([getOrder(orderId), getAccount()])
      setOrder(loaded)
      setAccount(balance)
      setLoadError(null)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [orderId])

  useEffect(() => {
    void load()
  }, [load])

  if (loadError !== null && !order) {
    return (
      <section className="ts-orders-page">
        <ErrorState message={errorText(loadError)} onRetry={load} isRetrying={isLoading} />
      </section>
    )
  }
  if (!order || !account) return <Spinner />

  const orderNo = order.order_no
  const total = order.total.toLocaleString(i18n.locale)
  const isCovered = account.balance >= order.total
  async function pay() {
    if (!order) return
    const isPaid = await payWithConfirmation(order, {
      question: t`Pay ${total} TC for order ${orderNo} from your balance?`,
      paid: t`Order ${orderNo} is paid.`,
    })
    if (isPaid) await load()
  }
  async function remove() {
    const isConfirmed = await confirm({
      type: 'warning',
      message: t`Delete the unpaid order ${orderNo}?`,
      isDestructive: true,
    })
    if (!isConfirmed) return
    try {
      await deleteOrder(orderId)
      toast.success(t`Deleted.`)
      await load()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <section className="ts-orders-page">
      <h1 className="ts-page-title">
        <Trans>Order {orderNo}</Trans>
      </h1>
      <div className="ts-system-panel">
        <dl className="ts-order-summary">
          <dt>
            <Trans>Project</Trans>
          </dt>
          <dd>{order.project_name}</dd>
          <dt>
            <Trans>State</Trans>
          </dt>
          <dd data-testid="order-state">{i18n._(orderStateNames[order.state])}</dd>
          <dt>
            <Trans>Created</Trans>
          </dt>
          <dd>
            <DateTime value={order.created_at} />
          </dd>
          {order.paid_at !== null && (
            <>
              <dt>
                <Trans>Paid</Trans>
              </dt>
              <dd>
                <DateTime value={order.paid_at} />
              </dd>
            </>
          )}
          <dt>
            <Trans>Balance</Trans>
          </dt>
          <dd>
            <Points value={account.balance} />
          </dd>
        </dl>
        <table className="ts-table">
          <TableHead columns={orderLineColumns} />
          <tbody>
            {order.lines.map((line) => (
              <tr key={line.line_id}>
                <th scope="row">{localized(line.names)}</th>
                <td>
                  {line.count.toLocaleString(i18n.locale)} {i18n._(unitName(line.unit, line.count))}
                </td>
                <td>{line.price < 0 ? <Trans>Free</Trans> : <Points value={line.price} />}</td>
                <td>
                  <Points value={line.amount} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                <Trans>Total</Trans>
              </th>
              <td>
                <Points value={order.total} />
              </td>
            </tr>
          </tfoot>
        </table>
        {order.state === 'unpaid' && (
          <div className="ts-order-actions">
            {!isCovered && (
              <Button onClick={() => navigateHash('/project/more/balance')}>
                <Trans>Recharge</Trans>
              </Button>
            )}
            <Button onClick={() => void remove()}>
              <Trans>Delete</Trans>
            </Button>
            <Button variant="primary" onClick={() => void pay()} disabled={!isCovered}>
              <Trans>Pay</Trans>
            </Button>
          </div>
        )}
      </div>
    </section>
  )
}
