import type { MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { LocalizedText, OrderState, OrderUnit } from '../../../contract/orders'
import { coinUnit } from '../../../contract/orders'

/** The name of the unit a line is counted in, in the form its count takes ("1 year", "2 years"). */
export function unitName(unit: OrderUnit, count: number): MessageDescriptor {
  switch (unit) {
    case 'MB':
      return msg`MB`
    case 'operation':
      return msg({ message: plural(count, { one: 'operation', other: 'operations' }) })
    case 'project':
      return msg({ message: plural(count, { one: 'project', other: 'projects' }) })
    case 'year':
      return msg({ message: plural(count, { one: 'year', other: 'years' }) })
  }
}

/** The names of an order's states. */
export const orderStateNames: Record<OrderState, MessageDescriptor> = {
  unpaid: msg`Unpaid`,
  paid: msg`Paid`,
  cancelled: msg`Deleted`,
}

/** The names of a recharge's states. */
export const rechargeStateNames: Record<'pending' | 'confirmed' | 'cancelled', MessageDescriptor> =
  {
    pending: msg`Waiting for confirmation`,
    confirmed: msg`Confirmed`,
    cancelled: msg`Cancelled`,
  }

/** An admin's text in the user's language (English when that language's text is empty). */
export function useLocalized(): (text: LocalizedText) => string {
  const { i18n } = useLingui()
  return (text) => {
    const locale = i18n.locale as keyof LocalizedText
    return text[locale] || text.en
  }
}

/** A number of points in the product coin unit (SPEC §1). */
export function Points({ value }: { value: number }) {
  const { i18n, t } = useLingui()
  return (
    <span className="ts-points">
      {value.toLocaleString(i18n.locale)}{' '}
      <abbr title={t`Twin coins, the product's points`}>{coinUnit}</abbr>
    </span>
  )
}

/** A timestamp as a local date and time in the user's language. */
export function DateTime({ value }: { value: string | null }) {
  const { i18n } = useLingui()
  if (value === null) return null
  return <time dateTime={value}>{new Date(value).toLocaleString(i18n.locale)}</time>
}

/** The columns of an order's line table: in the order dialog and on the order's own page. */
export const orderLineColumns = [
  { key: 'item', label: <Trans>Item</Trans> },
  { key: 'quantity', label: <Trans>Quantity</Trans> },
  { key: 'unit-price', label: <Trans>Unit price</Trans> },
  { key: 'amount', label: <Trans>Amount</Trans> },
] as const
