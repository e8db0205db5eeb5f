import { createHmac, timingSafeEqual } from 'node:crypto'
import { join } from 'node:path'
import { AppError } from '../../http/app-error'
import { loadOrCreateKey } from '../access/url-signer'

/** What a payment provider tells the server: a recharge (by its code) was paid. */
export interface PaymentNotice {
  /** The recharge code the payer quoted. */
  code: string
  /** Points paid for; must be the recharge's amount. */
  amount: number
  /** The provider's own id of the payment (kept for reconciliation). */
  reference: string
}

/** The parts of a callback request a provider checks. */
export interface PaymentCallback {
  body: { code: string; amount: number; reference: string }
  headers: Record<string, string | string[] | undefined>
}

/**
 * A payment provider's side of the recharge (decisions.md "Money"): it turns a callback into a
 * notice only when the callback carries the provider's signature; anything else is refused as
 * `payment.badSignature`. The recharge is then confirmed by the same code path as an admin's
 * confirmation (RechargesService.confirmFromProvider). A real provider (its SDK, its key
 * format) implements this interface and is listed in {@link PaymentProviders}.
 */
export interface PaymentProvider {
  name: string
  verify(callback: PaymentCallback): PaymentNotice
}

/** The providers the callback route knows, by the name in its address. */
export type PaymentProviders = ReadonlyMap<string, PaymentProvider>

/** The header the local provider's callbacks carry their signature in. */
export const localSignatureHeader = 'x-payment-signature'

/** The text the local provider signs: every field of the notice, one per line. */
function signedText(notice: PaymentNotice): string {
  return `${notice.code}\n${notice.amount}\n${notice.reference}`
}

/**
 * The signature of a notice with the local provider's key (hex HMAC-SHA256), as a payment
 * page run by the operator computes it (and the tests).
 */
export function signLocalPayment(key: Buffer, notice: PaymentNotice): string {
  return createHmac('sha256', key).update(signedText(notice)).digest('hex')
}

/** Where the local provider's key lives under DATA_DIR (made on first start, mode 0600). */
export function localPaymentKeyFile(dataDir: string): string {
  return join(dataDir, 'keys', 'payment-local.key')
}

/**
 * The default provider, `local`: callbacks signed with a key kept under DATA_DIR/keys, for an
 * operator's own payment page or a bank-statement import that signs what it confirms. It does
 * not "always succeed": a callback without the right signature confirms nothing.
 */
export function createLocalPaymentProvider(key: Buffer): PaymentProvider {
  return {
    name: 'local',
    verify({ body, headers }) {
      const header = headers[localSignatureHeader]
      const given = Array.isArray(header) ? header[0] : header
      const notice = { code: body.code, amount: body.amount, reference: body.reference }
      const expected = Buffer.from(signLocalPayment(key, notice), 'hex')
      const received = /^[0-9a-f]{64}$/.test(given ?? '')
        ? Buffer.from(given!, 'hex')
        : Buffer.alloc(0)
      if (received.byteLength !== expected.byteLength || !timingSafeEqual(received, expected)) {
        throw new AppError('forbidden', 'payment.badSignature')
      }
      return notice
    },
  }
}

/** The providers of a server whose data is in `dataDir`: the local one. */
export function openPaymentProviders(dataDir: string): PaymentProviders {
  const local = createLocalPaymentProvider(loadOrCreateKey(localPaymentKeyFile(dataDir)))
  return new Map([[local.name, local]])
}
