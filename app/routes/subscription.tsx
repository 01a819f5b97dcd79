import { useTranslation } from 'react-i18next'
import { data, redirect, redirectDocument, useActionData } from 'react-router'
import type { Route } from './+types/subscription'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { appOrigin, billingMode } from '#app/.server/billing/config.ts'
import { BILLING_ERROR_KEYS, billingErrorStatus, createCheckoutSession, createPortalSession, FREE_TRIAL_OVERVIEW, getSubscriptionOverview } from '#app/.server/billing/service.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { formatBillingDate } from '#app/components/billing/format.ts'
import { FrequencyToggle } from '#app/components/billing/frequency-toggle.tsx'
import { PlanCard, planCardAction } from '#app/components/billing/plan-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { isBillingFrequency, isPaidPlanId, parseFrequency, recommendedPlan } from '#app/domain/billing.ts'
import { PAID_PLAN_IDS } from '#app/domain/plans.ts'
import { cn } from '#app/utils/misc.ts'
import { pageTexts } from '#app/i18n.ts'

// The plans' texts come with the page (and the sandbox billing pages), not with every signed-in page's first load.
await pageTexts('subscription')

export const handle: AppHandle = { titleKey: 'pages.subscription' }

type Notice = 'checkoutSuccess' | 'checkoutPending' | 'checkoutCanceled'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  let overview = FREE_TRIAL_OVERVIEW
  let loadFailed = false
  try {
    overview = await getSubscriptionOverview(user)
  } catch (error) {
    console.error('[billing] subscription overview failed:', error)
    loadFailed = true
  }
  const checkout = url.searchParams.get('checkout')
  let notice: Notice | null = null
  if (checkout === 'success') notice = overview.plan === 'free_trial' ? 'checkoutPending' : 'checkoutSuccess'
  else if (checkout === 'canceled') notice = 'checkoutCanceled'
  return {
    overview,
    loadFailed,
    notice,
    frequency: parseFrequency(url.searchParams.get('frequency'), overview.frequency ?? 'monthly'),
    // One key per rendered page: submitting the same card twice opens one checkout session.
    idempotencyKey: crypto.randomUUID(),
    billing: billingMode(),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = form.get('intent')
  const plan = form.get('plan')
  const frequency = form.get('frequency')
  const origin = appOrigin(request)
  const locale = getLocale(context)
  let result
  if (intent === 'checkout') {
    if (!isPaidPlanId(plan) || !isBillingFrequency(frequency)) return data({ error: t('subscription.errors.invalid') }, { status: 400 })
    const key = form.get('idempotencyKey')
    const idempotencyKey = typeof key === 'string' && key.length >= 8 && key.length <= 200 ? key : crypto.randomUUID()
    result = await createCheckoutSession({ user, plan, frequency, origin, idempotencyKey, locale })
  } else if (intent === 'portal') {
    result = await createPortalSession({
      user,
      origin,
      locale,
      plan: isPaidPlanId(plan) ? plan : undefined,
      frequency: isBillingFrequency(frequency) ? frequency : undefined,
    })
  } else {
    return data({ error: t('subscription.errors.invalid') }, { status: 400 })
  }
  if (!result.ok) {
    return data({ error: t(BILLING_ERROR_KEYS[result.error]) }, { status: billingErrorStatus(result.error) })
  }
  const target = new URL(result.url, origin)
  // The sandbox is part of this app (client navigation is fine); Stripe is not: leave with a full page load.
  if (target.origin === origin) throw redirect(`${target.pathname}${target.search}`)
  throw redirectDocument(target.toString())
}

export default function SubscriptionRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const { overview, frequency, notice, idempotencyKey, billing, loadFailed } = loaderData
  return (
    <section className="mx-auto max-w-6xl">
      <div className="flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between">
        <div className="max-w-2xl">
          <h1 className="text-2xl font-semibold text-slate-900">{t('subscription.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('subscription.subtitle')}</p>
        </div>
        <FrequencyToggle value={frequency} />
      </div>

      <CurrentPlanLine overview={overview} />

      <div className="mt-6 space-y-3 empty:hidden">
        {billing === 'off' ? <Alert tone="info">{t('subscription.unavailableNotice')}</Alert> : null}
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
        {loadFailed ? <Alert tone="error">{t('subscription.errors.network')}</Alert> : null}
        {notice === 'checkoutSuccess' ? <Alert tone="success">{t('subscription.notices.checkoutSuccess', { plan: t(`plans.${overview.plan}`) })}</Alert> : null}
        {notice === 'checkoutPending' ? <Alert tone="info">{t('subscription.notices.checkoutPending')}</Alert> : null}
        {notice === 'checkoutCanceled' ? <Alert tone="info">{t('subscription.notices.checkoutCanceled')}</Alert> : null}
      </div>

      <ul className="mt-8 grid gap-6 lg:grid-cols-3">
        {PAID_PLAN_IDS.map((plan) => (
          <PlanCard
            key={plan}
            plan={plan}
            frequency={frequency}
            current={overview.plan === plan}
            recommended={recommendedPlan(overview.plan) === plan}
            idempotencyKey={idempotencyKey}
            disabled={billing === 'off'}
            action={planCardAction({ plan, frequency, currentPlan: overview.plan, currentFrequency: overview.frequency, t })}
          />
        ))}
      </ul>

      <div className="mt-8 space-y-1 text-center text-xs text-slate-500">
        <p>{t('subscription.footnote')}</p>
        {billing === 'sandbox' ? <p>{t('subscription.sandboxNote')}</p> : null}
      </div>
    </section>
  )
}

function CurrentPlanLine({ overview }: { overview: typeof FREE_TRIAL_OVERVIEW }) {
  const { t, i18n } = useTranslation()
  const label = t(`plans.${overview.plan}`)
  const paid = overview.plan !== 'free_trial'
  const planText = paid && overview.frequency ? t('subscription.planWithFrequency', { plan: label, frequency: t(`subscription.frequency.${overview.frequency}Lower`) }) : label
  const date = formatBillingDate(overview.currentPeriodEnd, i18n.language)
  const when = paid && date ? (overview.status === 'canceling' ? t('subscription.endsOn', { date }) : t('subscription.renewsOn', { date })) : null
  return (
    <div className="mt-6 flex flex-col gap-3 rounded-2xl bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-700" data-testid="current-plan">
        <span className="font-medium text-slate-900">{t('subscription.currentPlan', { plan: planText })}</span>
        {when ? <span> · {when}</span> : null}
      </p>
      {paid && overview.status ? (
        <span
          className={cn(
            'inline-flex w-fit items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold',
            overview.status === 'canceling' ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-800',
          )}
        >
          <span className={cn('size-1.5 rounded-full', overview.status === 'canceling' ? 'bg-amber-600' : 'bg-emerald-600')} aria-hidden="true" />
          {t(`subscription.status.${overview.status}`)}
        </span>
      ) : (
        <p className="text-sm text-slate-600">{t('subscription.freeTrialHint')}</p>
      )}
    </div>
  )
}
