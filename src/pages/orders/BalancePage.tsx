import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { orderLimits } from '../../../contract/orders'
import {
  type AccountDatum,
  cancelRecharge,
  confirmRecharge,
  getAccount,
  getRecharges,
  newIdempotencyKey,
  type Recharge,
  recordBankTransfer,
  requestRecharge,
} from '../../api/orders'
import { errorText, showErrorToast } from '../../components/feedback/error-text'
import { session } from '../../state/session'
import { Button, EmptyState, ErrorState, Spinner, TableHead, TextField, toast } from '../../ui'
import { DateTime, Points, rechargeStateNames } from './order-text'
import '../system/system.css'
import './orders.css'

/** Recharges shown at once. */
const rechargesPageSize = 20

/** A whole number of points from a field, or null when it is not one in range. */
function pointsOf(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null
  const value = Number(text)
  return value >= 1 && value <= orderLimits.maxRechargePoints ? value : null
}

/**
 * `/project/more/balance` (SPEC §2 "My balance"): the balance in the coin unit, a recharge
 * (a pending request with a code to quote) or a bank transfer record, and the recharge
 * history. Admins also confirm pending recharges by their code here.
 */
export function BalancePage() {
  const { userData } = useSnapshot(session)
  const [account, setAccount] = useState<AccountDatum | null>(null)
  const [recharges, setRecharges] = useState<Recharge[] | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [isLoading, setIsLoading] = useState(false)
  const isAdmin = userData?.role === 'admin'

  const load = useCallback(async () => {
    setIsLoading(true)
    try {
      const [loadedAccount, page] = await Promise.all([
        getAccount(),
        getRecharges({ pageNo: 1, pageSize: rechargesPageSize }),
      ])
      setAccount(loadedAccount)
      setRecharges(page.list)
      setLoadError(null)
    } catch (error) {
      setLoadError(error)
    } finally {
      setIsLoading(false)
    }
  }, [])

  useEffect(() => {
    void load()
  }, [load])

  return (
    <section className="ts-orders-page">
      <h1 className="ts-page-title">
        <Trans>My balance</Trans>
      </h1>
      {loadError !== null && !account ? (
        <ErrorState message={errorText(loadError)} onRetry={load} isRetrying={isLoading} />
      ) : !account || !recharges ? (
        <Spinner />
      ) : (
        <>
          <div className="ts-system-panel">
            <p className="ts-balance" data-testid="balance">
              <Points value={account.balance} />
            </p>
            <RechargeForm onDone={load} />
          </div>
          <BankTransferForm onDone={load} />
          {isAdmin && <ConfirmRechargeForm onDone={load} />}
          <RechargeHistory recharges={recharges} onChanged={load} />
        </>
      )}
    </section>
  )
}

function RechargeForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui()
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [isBusy, setIsBusy] = useState(false)
  const [created, setCreated] = useState<Recharge | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const points = pointsOf(amount)
    if (points === null) {
      setError(t`Enter a whole number of points from 1 to 10,000,000.`)
      return
    }
    setError(null)
    setIsBusy(true)
    try {
      setCreated(await requestRecharge(points, newIdempotencyKey()))
      setAmount('')
      onDone()
    } catch (failure) {
      showErrorToast(failure)
    } finally {
      setIsBusy(false)
    }
  }

  const code = created?.code
  return (
    <form className="ts-table-toolbar" onSubmit={(event) => void submit(event)}>
      <TextField
        label={t`Points to recharge`}
        inputMode="numeric"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        {...(error === null ? {} : { error })}
      />
      <Button type="submit" variant="primary" isBusy={isBusy}>
        <Trans>Recharge</Trans>
      </Button>
      {code !== undefined && (
        <p role="status">
          <Trans>
            Your recharge code is <span className="ts-recharge-code">{code}</span>. Quote it with
            your payment; the points arrive once it is confirmed.
          </Trans>
        </p>
      )}
    </form>
  )
}

function BankTransferForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui()
  const [amount, setAmount] = useState('')
  const [payerName, setPayerName] = useState('')
  const [reference, setReference] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [isBusy, setIsBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const points = pointsOf(amount)
    if (points === null || payerName.trim() === '') {
      setError(t`Enter the points (a whole number) and the payer's name.`)
      return
    }
    setError(null)
    setIsBusy(true)
    try {
      const recorded = await recordBankTransfer({
        amount: points,
        payer_name: payerName.trim(),
        bank_reference: reference.trim(),
        idempotency_key: newIdempotencyKey(),
      })
      const code = recorded.code
      toast.success(t`Bank transfer recorded with code ${code}.`)
      setAmount('')
      setPayerName('')
      setReference('')
      onDone()
    } catch (failure) {
      showErrorToast(failure)
    } finally {
      setIsBusy(false)
    }
  }

  return (
    <form className="ts-system-panel" onSubmit={(event) => void submit(event)}>
      <h2>
        <Trans>Bank transfer</Trans>
      </h2>
      <div className="ts-table-toolbar">
        <TextField
          label={t`Points`}
          inputMode="numeric"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          {...(error === null ? {} : { error })}
        />
        <TextField
          label={t`Payer's name`}
          value={payerName}
          maxLength={100}
          onChange={(event) => setPayerName(event.target.value)}
        />
        <TextField
          label={t`Bank reference`}
          value={reference}
          maxLength={100}
          onChange={(event) => setReference(event.target.value)}
        />
        <Button type="submit" isBusy={isBusy}>
          <Trans>Record transfer</Trans>
        </Button>
      </div>
    </form>
  )
}

function ConfirmRechargeForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui()
  const [code, setCode] = useState('')
  const [isBusy, setIsBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (code.trim() === '') return
    setIsBusy(true)
    try {
      const confirmed = await confirmRecharge(code.trim())
      const name = confirmed.user_name
      const amount = confirmed.amount
      toast.success(t`${amount} TC credited to ${name}.`)
      setCode('')
      onDone()
    } catch (failure) {
      showErrorToast(failure)
    } finally {
      setIsBusy(false)
    }
  }

  return (
    <form className="ts-system-panel" onSubmit={(event) => void submit(event)}>
      <h2>
        <Trans>Confirm a recharge (admin)</Trans>
      </h2>
      <div className="ts-table-toolbar">
        <TextField
          label={t`Recharge code`}
          value={code}
          maxLength={40}
          onChange={(event) => setCode(event.target.value)}
        />
        <Button type="submit" variant="primary" isBusy={isBusy}>
          <Trans>Confirm</Trans>
        </Button>
      </div>
    </form>
  )
}

function RechargeHistory({
  recharges,
  onChanged,
}: {
  recharges: readonly Recharge[]
  onChanged: () => void
}) {
  const { i18n } = useLingui()
  async function cancel(recharge: Recharge) {
    try {
      await cancelRecharge(recharge.id)
      onChanged()
    } catch (error) {
      showErrorToast(error)
    }
  }
  return (
    <div className="ts-system-panel">
      <h2>
        <Trans>Recharge history</Trans>
      </h2>
      {recharges.length === 0 ? (
        <EmptyState title={<Trans>No recharges yet</Trans>} />
      ) : (
        <table className="ts-table">
          <TableHead
            columns={[
              { key: 'code', label: <Trans>Code</Trans> },
              { key: 'method', label: <Trans>Method</Trans> },
              { key: 'points', label: <Trans>Points</Trans> },
              { key: 'state', label: <Trans>State</Trans> },
              { key: 'created', label: <Trans>Created</Trans> },
            ]}
            hasActions
          />
          <tbody>
            {recharges.map((recharge) => (
              <tr key={recharge.id}>
                <th scope="row" className="ts-recharge-code">
                  {recharge.code}
                </th>
                <td>
                  {recharge.method === 'bank' ? (
                    <Trans>Bank transfer</Trans>
                  ) : (
                    <Trans>Online</Trans>
                  )}
                </td>
                <td>
                  <Points value={recharge.amount} />
                </td>
                <td>{i18n._(rechargeStateNames[recharge.state])}</td>
                <td>
                  <DateTime value={recharge.created_at} />
                </td>
                <td className="ts-table__actions">
                  {recharge.state === 'pending' && (
                    <Button variant="ghost" onClick={() => void cancel(recharge)}>
                      <Trans>Cancel</Trans>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
