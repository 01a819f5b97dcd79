import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData } from 'react-router'
import type { Route } from './+types/billing.sandbox.checkout'
import { requireUser } from '#app/.server/auth.ts'
import { isSandboxEnabled } from '#app/.server/billing/config.ts'
import { confirmSandboxCheckout, readSandboxToken } from '#app/.server/billing/sandbox.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { formatEuros, formatNumber } from '#app/components/billing/format.ts'
import { SandboxFrame, SandboxMessage } from '#app/components/billing/sandbox-frame.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { PLAN_FEATURES, monthlyCredits, planPricing } from '#app/domain/billing.ts'
import { useIsPending } from '#app/utils/misc.ts'

/**
 * The sandbox's hosted checkout (no STRIPE_SECRET_KEY): the user confirms a test payment for the
 * plan and frequency signed into `?session=`. Confirming sends checkout.session.completed through
 * the webhook's code path. Nothing is charged.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  if (!isSandboxEnabled()) throw data(null, { status: 404 })
  const session = new URL(request.url).searchParams.get('session') ?? ''
  const check = readSandboxToken(session, 'checkout', user.id)
  if (!check.ok) return data({ state: check.reason, email: user.email }, { status: check.reason === 'forbidden' ? 403 : 400 })
  return { state: 'ready' as const, email: user.email, session, plan: check.token.plan, frequency: check.token.frequency }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  if (!isSandboxEnabled()) throw data(null, { status: 404 })
  const t = getInstance(context).t
  const form = await request.formData()
  const check = readSandboxToken(form.get('session'), 'checkout', user.id)
  if (!check.ok) {
    return data(
      { error: check.reason === 'forbidden' ? t('billing.sandbox.forbiddenSession') : t('billing.sandbox.invalidSession') },
      { status: check.reason === 'forbidden' ? 403 : 400 },
    )
  }
  const result = await confirmSandboxCheckout(check.token)
  if (!result.ok) return data({ error: t('billing.sandbox.alreadySubscribed') }, { status: 409 })
  throw redirect('/subscription?checkout=success')
}

export default function SandboxCheckoutRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending()
  const title = t('billing.sandbox.checkout.pageTitle')
  if (loaderData.state !== 'ready') {
    return (
      <SandboxFrame title={title}>
        <SandboxMessage
          title={title}
          message={loaderData.state === 'forbidden' ? t('billing.sandbox.forbiddenSession') : t('billing.sandbox.invalidSession')}
        />
      </SandboxFrame>
    )
  }
  const { plan, frequency, session, email } = loaderData
  const language = i18n.language
  const pricing = planPricing(plan, frequency)
  const planLabel = t(`plans.${plan}`)
  return (
    <SandboxFrame title={title}>
      <div className="grid gap-6 md:grid-cols-5">
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
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-slate-500">{t('billing.sandbox.checkout.plan')}</dt>
              <dd className="font-medium text-slate-900">{planLabel}</dd>
            </div>
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-slate-500">{t('billing.sandbox.checkout.billing')}</dt>
              <dd className="font-medium text-slate-900">{t(`subscription.frequency.${frequency}`)}</dd>
            </div>
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-slate-500">{t('billing.sandbox.checkout.credits')}</dt>
              <dd className="font-medium text-slate-900">{t('billing.sandbox.checkout.creditsValue', { credits: formatNumber(monthlyCredits(plan), language) })}</dd>
            </div>
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
              {formatEuros(pricing.amountPerPeriod, language, { cents: true })}
            </dd>
          </dl>
          {actionData?.error ? (
            <Alert tone="error" className="mt-4">
              {actionData.error}
            </Alert>
          ) : null}
          <Form method="post" className="mt-6">
            <input type="hidden" name="session" value={session} />
            <Button type="submit" size="lg" className="w-full" pending={pending}>
              {pending ? t('billing.sandbox.checkout.paying') : t('billing.sandbox.checkout.confirm')}
            </Button>
          </Form>
          <Link
            to={`/subscription?checkout=canceled&frequency=${frequency}`}
            className={buttonClasses({ variant: 'ghost', className: 'mt-2 w-full' })}
          >
            {t('billing.sandbox.checkout.cancel')}
          </Link>
        </section>
      </div>
    </SandboxFrame>
  )
}
