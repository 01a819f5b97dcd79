import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { PLAN_FEATURES, monthlyCredits, planPricing, type BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { formatEuros, formatNumber } from './format.ts'

interface CheckoutProps {
  plan: PaidPlanId
  frequency: BillingFrequency
}

/** The left column of the sandbox checkout: what is being bought. */
export function CheckoutSummary({ plan, frequency }: CheckoutProps) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const pricing = planPricing(plan, frequency)
  const planLabel = t(`plans.${plan}`)
  return (
    <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8 md:col-span-3" aria-labelledby="checkout-title">
      <p className="text-sm font-medium text-slate-500">{t('billing.sandbox.checkout.eyebrow')}</p>
      <h1 id="checkout-title" className="mt-1 text-2xl font-semibold text-slate-900">
        {t('billing.sandbox.checkout.title', { plan: planLabel })}
      </h1>
      <p className="mt-4 flex items-baseline gap-1.5">
        <span className="text-4xl font-semibold tracking-tight text-slate-900">{formatEuros(pricing.pricePerMonth, language)}</span>
        <span className="text-sm font-medium text-slate-500">{t('subscription.perMonth')}</span>
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {frequency === 'annual' ? t('subscription.billedYearly', { amount: formatEuros(pricing.amountPerPeriod, language) }) : t('subscription.billedMonthly')}
      </p>
      <dl className="mt-6 divide-y divide-slate-100 border-y border-slate-100 text-sm">
        <SummaryRow term={t('billing.sandbox.checkout.plan')} value={planLabel} />
        <SummaryRow term={t('billing.sandbox.checkout.billing')} value={t(`subscription.frequency.${frequency}`)} />
        <SummaryRow term={t('billing.sandbox.checkout.credits')} value={t('billing.sandbox.checkout.creditsValue', { credits: formatNumber(monthlyCredits(plan), language) })} />
      </dl>
      <ul className="mt-5 space-y-2 text-sm text-slate-600">
        {PLAN_FEATURES[plan].map((feature) => (
          <li key={feature} className="flex gap-2">
            <span aria-hidden="true" className="text-brand-600">
              ✓
            </span>
            {t(`subscription.features.${feature}`)}
          </li>
        ))}
      </ul>
    </section>
  )
}

function SummaryRow({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 py-3">
      <dt className="text-slate-500">{term}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  )
}

/**
 * The right column: the test "payment". Confirming is a plain POST with the signed session, and
 * canceling a link back to the plans, so both work without JavaScript.
 */
export function CheckoutPayment({ plan, frequency, email, session, error }: CheckoutProps & { email: string; session: string; error?: string }) {
  const { t, i18n } = useTranslation()
  const pending = useIsPending()
  const pricing = planPricing(plan, frequency)
  return (
    <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8 md:col-span-2" aria-labelledby="payment-title">
      <h2 id="payment-title" className="text-lg font-semibold text-slate-900">
        {t('billing.sandbox.checkout.payment')}
      </h2>
      <dl className="mt-4 text-sm">
        <dt className="text-slate-500">{t('billing.sandbox.checkout.account')}</dt>
        <dd className="mt-0.5 font-medium break-all text-slate-900">{email}</dd>
      </dl>
      <p className="mt-3 rounded-xl bg-slate-50 p-3 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset">{t('billing.sandbox.checkout.noCard')}</p>
      <dl className="mt-4 flex items-baseline justify-between gap-4 border-t border-slate-100 pt-4 text-sm">
        <dt className="font-medium text-slate-900">{t('billing.sandbox.checkout.totalToday')}</dt>
        <dd className="text-xl font-semibold text-slate-900" data-testid="checkout-total">
          {formatEuros(pricing.amountPerPeriod, i18n.language, { cents: true })}
        </dd>
      </dl>
      {error ? <Alert tone="error" className="mt-4">{error}</Alert> : null}
      <Form method="post" className="mt-6">
        <input type="hidden" name="session" value={session} />
        <Button type="submit" size="lg" className="w-full" pending={pending}>
          {pending ? t('billing.sandbox.checkout.paying') : t('billing.sandbox.checkout.confirm')}
        </Button>
      </Form>
      <Link to={`/subscription?checkout=canceled&frequency=${frequency}`} className={buttonClasses({ variant: 'ghost', className: 'mt-2 w-full' })}>
        {t('billing.sandbox.checkout.cancel')}
      </Link>
    </section>
  )
}
