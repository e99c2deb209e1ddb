// Money limits, and a payment's refusal, that the repositories, the payment providers, the routes and the HTTP layer share.

/**
 * The most one charge carries, in cents: 999 999,99 € (Stripe takes amounts of eight digits at most). A larger unpaid
 * total is refused before any charge (routes/billing, 422 AMOUNT_TOO_LARGE); payment_attempts.amount_cents, an
 * integer column, holds it too.
 */
export const MAX_PAYMENT_CENTS = 99_999_999

/** A payment the provider refused (a declined card…): its French message and status (402 unless said). */
export class PaymentError extends Error {
  constructor(
    message: string,
    readonly statusCode = 402,
  ) {
    super(message)
  }
}
