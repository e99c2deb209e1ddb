// Money limits that the repositories, the payment providers and the routes share.

/**
 * The most one charge carries, in cents: 999 999,99 € (Stripe takes amounts of eight digits at most). A larger unpaid
 * total is refused before any charge (routes/billing, 422 AMOUNT_TOO_LARGE); payment_attempts.amount_cents, an
 * integer column, holds it too.
 */
export const MAX_PAYMENT_CENTS = 99_999_999
