// Display helpers shared by the subscription page and the sandbox pages (client and server).
import { CURRENCY } from '#app/domain/billing.ts'

/** Whole euros ("€29", "29 €"), or with cents for totals due ("€69.00"). */
export function formatEuros(amount: number, language: string, { cents = false }: { cents?: boolean } = {}) {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: CURRENCY,
    minimumFractionDigits: cents ? 2 : 0,
    maximumFractionDigits: cents ? 2 : 0,
  }).format(amount)
}

export function formatNumber(value: number, language: string) {
  return new Intl.NumberFormat(language).format(value)
}

/** Billing dates in UTC, so the server render and the hydrated page always agree. */
export function formatBillingDate(iso: string | Date | null | undefined, language: string) {
  if (!iso) return ''
  const date = iso instanceof Date ? iso : new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
}
