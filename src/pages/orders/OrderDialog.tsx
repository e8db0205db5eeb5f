import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { priceContactUs, priceFree } from '../../../contract/orders'
import { navigateHash } from '../../app/hash-location'
import {
  addOrder,
  getShoppingList,
  type ShoppingLine,
  type ShoppingListDatum,
} from '../../api/orders'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { Button, TableHead, confirm, Dialog, ErrorState, Spinner, Tooltip } from '../../ui'
import {
  chooseSupport,
  initialSelection,
  isLineLocked,
  lineAmount,
  type OrderSelection,
  orderBodyOf,
  setSupportYears,
  toggleLine,
  toggleTrial,
  totalOf,
} from './order-selection'
import { orderLineColumns, Points, unitName, useLocalized } from './order-text'
import './orders.css'

/** Props of {@link OrderDialog}. */
export interface OrderDialogProps {
  projectId: string
  projectName: string
  onClose: () => void
  /**
   * What "Direct download" of the development trial does (after the dialog closes); by default
   * it opens the editor's offline file page (/bim4/download).
   */
  onDirectDownload?: () => void
}

/** The order detail address the success dialog offers (SPEC §2 `/project/more/ordetails`). */
export function orderDetailsPath(orderId: string): string {
  return `/project/more/ordetails?orderId=${encodeURIComponent(orderId)}`
}

/**
 * The order-shopping dialog (SPEC §2, §4): loads the project's lines, lets the user toggle
 * lines, pick one service support option and enter or leave the development trial, shows the
 * total of the choice, and orders it. On success it closes and offers the order centre.
 */
export function OrderDialog({
  projectId,
  projectName,
  onClose,
  onDirectDownload = () => navigateHash('/bim4/download'),
}: OrderDialogProps) {
  const { t } = useLingui()
  const localized = useLocalized()
  const [list, setList] = useState<ShoppingListDatum | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [selection, setSelection] = useState<OrderSelection | null>(null)
  const [isOrdering, setIsOrdering] = useState(false)
  const [attempt, setAttempt] = useState(0)

  // `attempt` is a dependency on purpose: Retry bumps it to load again
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    let isCurrent = true
    setLoadError(null)
    getShoppingList(projectId)
      .then((loaded) => {
        if (!isCurrent) return
        setList(loaded)
        setSelection(initialSelection(loaded.lines))
      })
      .catch((error: unknown) => {
        if (!isCurrent) return
        // SPEC §8: a failed shopping list load shows the server's message as an error
        showErrorToast(error)
        setLoadError(error)
      })
    return () => {
      isCurrent = false
    }
  }, [projectId, attempt])

  async function order() {
    if (!list || !selection) return
    setIsOrdering(true)
    try {
      const created = await addOrder(orderBodyOf(projectId, list.lines, selection))
      onClose()
      const orderNo = created.order_no
      const goesToOrder = await confirm({
        type: 'success',
        title: t`Order created`,
        message: t`Order ${orderNo} was created. Go to the order centre to pay it?`,
        confirmLabel: t`Go to the order centre`,
        cancelLabel: t`Later`,
      })
      if (goesToOrder) navigateHash(orderDetailsPath(created.orderId))
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsOrdering(false)
    }
  }

  const total = list && selection ? totalOf(list.lines, selection) : 0
  const footer =
    list && selection ? (
      <>
        <span className="ts-order-dialog__total" aria-live="polite">
          <Trans>Total</Trans> <Points value={total} />
        </span>
        <Button onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        {selection.isTrial ? (
          <Button
            variant="primary"
            onClick={() => {
              onClose()
              onDirectDownload()
            }}
          >
            <Trans>Direct download</Trans>
          </Button>
        ) : (
          <Button
            variant="primary"
            onClick={() => void order()}
            isBusy={isOrdering}
            disabled={total <= 0 || list.unpaid_order_id !== null}
          >
            <Trans>Order</Trans>
          </Button>
        )}
      </>
    ) : undefined

  return (
    <Dialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={<Trans>Order for {projectName}</Trans>}
      widthPx={640}
      {...(footer ? { footer } : {})}
    >
      {loadError !== null && !list ? (
        <ErrorState message={errorText(loadError)} onRetry={() => setAttempt(attempt + 1)} />
      ) : !list || !selection ? (
        <Spinner />
      ) : (
        <>
          {list.unpaid_order_id !== null && (
            <p className="ts-order-dialog__blocked" role="alert">
              <Trans>
                You cannot generate a new order due to an uncompleted order! Please go to the order
                center to pay or delete the order!
              </Trans>{' '}
              <Button
                variant="ghost"
                onClick={() => navigateHash(orderDetailsPath(list.unpaid_order_id!))}
              >
                <Trans>Open the order</Trans>
              </Button>
            </p>
          )}
          <table className="ts-table ts-order-dialog__lines">
            <TableHead columns={orderLineColumns} />
            <tbody>
              {list.lines.map((line) => (
                <LineRow
                  key={line.id}
                  line={line}
                  name={localized(line.names)}
                  description={line.price_des_state === '1' ? localized(line.price_des) : ''}
                  selection={selection}
                  onChange={setSelection}
                />
              ))}
            </tbody>
          </table>
        </>
      )}
    </Dialog>
  )
}

/** One line: a toggle, a radio option of service support, or the trial switch. */
function LineRow({
  line,
  name,
  description,
  selection,
  onChange,
}: {
  line: ShoppingLine
  name: string
  description: string
  selection: OrderSelection
  onChange: (selection: OrderSelection) => void
}) {
  const { i18n, t } = useLingui()
  const isLocked = isLineLocked(line, selection)
  const isSupport = line.type === '5'
  const isTrial = line.type === '6'
  const isChosen = isTrial
    ? selection.isTrial
    : isSupport
      ? selection.supportId === line.id
      : selection.checkedIds.has(line.id)
  const isSupportYearsChosen = isSupport && isChosen && line.price > 0
  // metered lines (uploads, updates, configurations) count what is unpaid; the others count one
  const quantity = isSupportYearsChosen
    ? selection.supportYears
    : line.type === '1' || line.type === '2' || line.type === '3'
      ? line.unpaid
      : 1
  const onToggle = () => {
    if (isTrial) onChange(toggleTrial(selection))
    else if (isSupport) onChange(chooseSupport(selection, line))
    else onChange(toggleLine(selection, line))
  }
  const label = (
    <label className="ts-order-line__label">
      <input
        type={isSupport ? 'radio' : 'checkbox'}
        name={isSupport ? 'service-support' : undefined}
        checked={isChosen}
        disabled={isLocked}
        onChange={onToggle}
      />{' '}
      <span>{name}</span>
    </label>
  )
  return (
    <tr className={isLocked ? 'ts-order-line is-locked' : 'ts-order-line'}>
      <th scope="row">
        {description ? (
          <Tooltip content={description}>
            <span className="ts-order-line__described">{label}</span>
          </Tooltip>
        ) : (
          label
        )}
      </th>
      <td>
        {isSupportYearsChosen ? (
          <select
            aria-label={t`Years of ${name}`}
            value={selection.supportYears}
            disabled={isLocked}
            onChange={(event) => onChange(setSupportYears(selection, Number(event.target.value)))}
          >
            {Array.from({ length: 10 }, (_, index) => index + 1).map((years) => (
              <option key={years} value={years}>
                {years}
              </option>
            ))}
          </select>
        ) : (
          quantity.toLocaleString(i18n.locale)
        )}{' '}
        {i18n._(unitName(line.unit, quantity))}
      </td>
      <td>
        {line.price === priceContactUs ? (
          <Trans>Contact us</Trans>
        ) : line.price === priceFree ? (
          <Trans>Free</Trans>
        ) : (
          <Points value={line.price} />
        )}
      </td>
      <td>
        <Points value={lineAmount(line, selection)} />
      </td>
    </tr>
  )
}
