import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router'
import type { Route } from './+types/billing.sandbox.portal'
import { requireUser } from '#app/.server/auth.ts'
import { isSandboxEnabled } from '#app/.server/billing/config.ts'
import { changeSandboxSubscription, getSandboxSubscription, readSandboxToken, SANDBOX_PORTAL_PATH, type SandboxChange } from '#app/.server/billing/sandbox.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { formatBillingDate, formatEuros, formatNumber } from '#app/components/billing/format.ts'
import { BackToApp, SandboxFrame, SandboxMessage } from '#app/components/billing/sandbox-frame.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { BILLING_FREQUENCIES, isBillingFrequency, isPaidPlanId, maxAnnualDiscountPercent, monthlyCredits, planPricing } from '#app/domain/billing.ts'
import { PAID_PLAN_IDS } from '#app/domain/plans.ts'
import { cn } from '#app/utils/misc.ts'

/**
 * The sandbox's customer portal (no STRIPE_SECRET_KEY): change plan or billing frequency, cancel at
 * the end of the period or resume, and — sandbox only — end the current period now, to try renewals
 * and expiry offline. Every change is sent as a Stripe event through the webhook's code path.
 */
const DONE = ['updated', 'canceled', 'resumed', 'renewed', 'ended'] as const
type Done = (typeof DONE)[number]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  if (!isSandboxEnabled()) throw data(null, { status: 404 })
  const url = new URL(request.url)
  const session = url.searchParams.get('session') ?? ''
  const check = readSandboxToken(session, 'portal', user.id)
  if (!check.ok) return data({ state: check.reason }, { status: check.reason === 'forbidden' ? 403 : 400 })
  const subscription = await getSandboxSubscription(user.id)
  const done = url.searchParams.get('done')
  return {
    state: 'ready' as const,
    session,
    done: (DONE as readonly string[]).includes(done ?? '') ? (done as Done) : null,
    // Canceling is confirmed on a second step, a GET state so it works without JavaScript.
    confirmCancel: url.searchParams.get('confirm') === 'cancel',
    portalHref: `${SANDBOX_PORTAL_PATH}?session=${encodeURIComponent(session)}`,
    preselect: subscription ? { plan: check.token.plan ?? subscription.plan, frequency: check.token.frequency ?? subscription.frequency } : null,
    subscription: subscription
      ? {
          id: subscription.id,
          plan: subscription.plan,
          frequency: subscription.frequency,
          cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
          currentPeriodStart: subscription.currentPeriodStart.toISOString(),
          currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
          version: subscription.version,
        }
      : null,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  if (!isSandboxEnabled()) throw data(null, { status: 404 })
  const t = getInstance(context).t
  const form = await request.formData()
  const session = form.get('session')
  const check = readSandboxToken(session, 'portal', user.id)
  if (!check.ok) {
    return data(
      { error: check.reason === 'forbidden' ? t('billing.sandbox.forbiddenSession') : t('billing.sandbox.invalidSession') },
      { status: check.reason === 'forbidden' ? 403 : 400 },
    )
  }
  const intent = form.get('intent')
  const subscriptionId = form.get('subscriptionId')
  const version = Number(form.get('version'))
  const plan = form.get('plan')
  const frequency = form.get('frequency')
  let change: SandboxChange
  if (intent === 'update' && isPaidPlanId(plan) && isBillingFrequency(frequency)) change = { action: 'update', plan, frequency }
  else if (intent === 'cancel') {
    // Only the confirmation step's form says so: any other cancel post (a stale page) asks first.
    if (form.get('confirmed') !== 'yes') throw redirect(`${SANDBOX_PORTAL_PATH}?session=${encodeURIComponent(String(session))}&confirm=cancel#cancel-title`)
    change = { action: 'cancel' }
  }
  else if (intent === 'resume') change = { action: 'resume' }
  else if (intent === 'end_period') change = { action: 'end_period' }
  else return data({ error: t('subscription.errors.invalid') }, { status: 400 })
  if (typeof subscriptionId !== 'string' || !Number.isInteger(version)) return data({ error: t('subscription.errors.invalid') }, { status: 400 })

  const result = await changeSandboxSubscription({ userId: user.id, subscriptionId, version, change })
  if (!result.ok) return data({ error: t('billing.sandbox.portal.none') }, { status: 409 })
  const back = `${SANDBOX_PORTAL_PATH}?session=${encodeURIComponent(String(session))}`
  // Nothing changed (same plan chosen again, or a repeated submission): no confirmation to show.
  if (!result.event) throw redirect(back)
  let done: Done = change.action === 'update' ? 'updated' : change.action === 'cancel' ? 'canceled' : change.action === 'resume' ? 'resumed' : 'renewed'
  if (change.action === 'end_period' && !(await getSandboxSubscription(user.id))) done = 'ended'
  throw redirect(`${back}&done=${done}`)
}

export default function SandboxPortalRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const title = t('billing.sandbox.portal.pageTitle')
  if (loaderData.state !== 'ready') {
    return (
      <SandboxFrame title={title}>
        <SandboxMessage title={title} message={loaderData.state === 'forbidden' ? t('billing.sandbox.forbiddenSession') : t('billing.sandbox.invalidSession')} />
      </SandboxFrame>
    )
  }
  const { subscription, session, done, preselect, confirmCancel, portalHref } = loaderData
  const language = i18n.language
  const pendingIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const doneMessage = done ? t(`billing.sandbox.portal.done.${done}`) : null

  if (!subscription || !preselect) {
    return (
      <SandboxFrame title={title}>
        {doneMessage ? (
          <Alert tone="success" className="mx-auto mt-6 max-w-lg">
            {doneMessage}
          </Alert>
        ) : null}
        <SandboxMessage title={t('billing.sandbox.portal.title')} message={t('billing.sandbox.portal.none')} />
      </SandboxFrame>
    )
  }

  const end = formatBillingDate(subscription.currentPeriodEnd, language)
  const pricing = planPricing(subscription.plan, subscription.frequency)
  const hidden = (
    <>
      <input type="hidden" name="session" value={session} />
      <input type="hidden" name="subscriptionId" value={subscription.id} />
      <input type="hidden" name="version" value={subscription.version} />
    </>
  )
  return (
    <SandboxFrame title={title}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="text-2xl font-semibold text-slate-900">{t('billing.sandbox.portal.title')}</h1>
        <BackToApp />
      </div>

      <div className="mt-4 space-y-3 empty:hidden">
        {doneMessage ? <Alert tone="success">{doneMessage}</Alert> : null}
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
      </div>

      <section aria-labelledby="current-title" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="current-title" className="text-sm font-medium text-slate-500">
              {t('billing.sandbox.portal.current')}
            </h2>
            <p className="mt-1 text-xl font-semibold text-slate-900" data-testid="portal-plan">
              {t('subscription.planWithFrequency', { plan: t(`plans.${subscription.plan}`), frequency: t(`subscription.frequency.${subscription.frequency}Lower`) })}
            </p>
          </div>
          <span
            className={cn(
              'rounded-full px-2.5 py-1 text-xs font-semibold',
              subscription.cancelAtPeriodEnd ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-800',
            )}
            data-testid="portal-status"
          >
            {subscription.cancelAtPeriodEnd ? t('subscription.status.canceling') : t('subscription.status.active')}
          </span>
        </div>
        <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-500">{t('billing.sandbox.portal.price')}</dt>
            <dd className="mt-0.5 font-medium text-slate-900">
              {subscription.frequency === 'annual'
                ? t('billing.sandbox.portal.pricePerYear', { amount: formatEuros(pricing.amountPerPeriod, language) })
                : t('billing.sandbox.portal.pricePerMonth', { amount: formatEuros(pricing.amountPerPeriod, language) })}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t('billing.sandbox.checkout.credits')}</dt>
            <dd className="mt-0.5 font-medium text-slate-900">{t('billing.sandbox.checkout.creditsValue', { credits: formatNumber(monthlyCredits(subscription.plan), language) })}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{subscription.cancelAtPeriodEnd ? t('billing.sandbox.portal.endsLabel') : t('billing.sandbox.portal.renewsLabel')}</dt>
            <dd className="mt-0.5 font-medium text-slate-900">{end}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="change-title" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h2 id="change-title" className="text-lg font-semibold text-slate-900">
          {t('billing.sandbox.portal.changePlan')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('billing.sandbox.portal.changePlanHint')}</p>
        <Form method="post" className="mt-5 space-y-5">
          {hidden}
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t('billing.sandbox.portal.planLegend')}</legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-3">
              {PAID_PLAN_IDS.map((plan) => (
                <label
                  key={plan}
                  className="relative flex cursor-pointer flex-col rounded-xl p-4 ring-1 ring-slate-300 has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-brand-600"
                >
                  <input type="radio" name="plan" value={plan} defaultChecked={plan === preselect.plan} className="sr-only" />
                  <span className="text-sm font-semibold text-slate-900">{t(`plans.${plan}`)}</span>
                  <span className="mt-0.5 text-xs text-slate-600">{t('billing.sandbox.checkout.creditsValue', { credits: formatNumber(monthlyCredits(plan), language) })}</span>
                  <span className="mt-1 text-xs text-slate-600">
                    {t('billing.sandbox.portal.planPrices', {
                      monthly: formatEuros(planPricing(plan, 'monthly').pricePerMonth, language),
                      annual: formatEuros(planPricing(plan, 'annual').pricePerMonth, language),
                    })}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t('billing.sandbox.portal.frequencyLegend')}</legend>
            <div className="mt-2 flex flex-wrap gap-3">
              {BILLING_FREQUENCIES.map((frequency) => (
                <label
                  key={frequency}
                  className="flex cursor-pointer items-center gap-2 rounded-xl px-4 py-2.5 text-sm ring-1 ring-slate-300 has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600"
                >
                  <input type="radio" name="frequency" value={frequency} defaultChecked={frequency === preselect.frequency} className="size-4 accent-brand-600" />
                  <span className="font-medium text-slate-900">{t(`subscription.frequency.${frequency}`)}</span>
                  {frequency === 'annual' ? (
                    <span className="text-xs text-emerald-700">{t('subscription.frequency.saveUpTo', { percent: maxAnnualDiscountPercent() })}</span>
                  ) : null}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" name="intent" value="update" pending={pendingIntent === 'update'}>
            {t('billing.sandbox.portal.update')}
          </Button>
        </Form>
      </section>

      {subscription.cancelAtPeriodEnd ? (
        <section aria-labelledby="cancel-title" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <h2 id="cancel-title" className="text-lg font-semibold text-slate-900">
            {t('billing.sandbox.portal.resumeTitle')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('billing.sandbox.portal.resumeHint', { date: end })}</p>
          <Form method="post" className="mt-4">
            {hidden}
            <Button type="submit" name="intent" value="resume" pending={pendingIntent === 'resume'}>
              {t('billing.sandbox.portal.resume')}
            </Button>
          </Form>
        </section>
      ) : confirmCancel ? (
        <section aria-labelledby="cancel-title" className="mt-6 rounded-2xl bg-red-50 p-6 ring-1 ring-red-200 sm:p-8" data-testid="cancel-confirm">
          <FocusedHeading id="cancel-title" className="text-lg font-semibold text-red-950">
            {t('sandboxCancel.title')}
          </FocusedHeading>
          <p className="mt-1 text-sm text-red-900">{t('sandboxCancel.body', { plan: t(`plans.${subscription.plan}`), date: end })}</p>
          <Form method="post" className="mt-5 flex flex-col-reverse gap-3 sm:flex-row">
            {hidden}
            <input type="hidden" name="confirmed" value="yes" />
            <Link to={portalHref} replace preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
              {t('sandboxCancel.keep')}
            </Link>
            <Button type="submit" name="intent" value="cancel" variant="danger" pending={pendingIntent === 'cancel'}>
              {t('sandboxCancel.confirm')}
            </Button>
          </Form>
        </section>
      ) : (
        <section aria-labelledby="cancel-title" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <h2 id="cancel-title" className="text-lg font-semibold text-slate-900">
            {t('billing.sandbox.portal.cancelTitle')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('billing.sandbox.portal.cancelHint', { date: end })}</p>
          {/* A link to the confirmation step, not the cancel itself: one click never cancels. */}
          <Link to={`${portalHref}&confirm=cancel#cancel-title`} preventScrollReset className={buttonClasses({ variant: 'secondary', className: 'mt-4' })}>
            {t('billing.sandbox.portal.cancel')}
          </Link>
        </section>
      )}

      <section aria-labelledby="tools-title" className="mt-6 rounded-2xl border border-dashed border-amber-400 bg-amber-50 p-6 sm:p-8">
        <h2 id="tools-title" className="text-lg font-semibold text-amber-950">
          {t('billing.sandbox.portal.toolsTitle')}
        </h2>
        <p className="mt-1 text-sm text-amber-950">
          {subscription.cancelAtPeriodEnd ? t('billing.sandbox.portal.endPeriodExpireHint') : t('billing.sandbox.portal.endPeriodRenewHint')}
        </p>
        <Form method="post" className="mt-4">
          {hidden}
          <Button type="submit" name="intent" value="end_period" variant="secondary" pending={pendingIntent === 'end_period'}>
            {t('billing.sandbox.portal.endPeriod')}
          </Button>
        </Form>
      </section>
    </SandboxFrame>
  )
}

/** The link that led to the confirmation is gone once it shows: focus moves to the question instead of the page's start. */
function FocusedHeading({ id, className, children }: { id: string; className: string; children: React.ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => ref.current?.focus(), [])
  return (
    <h2 id={id} ref={ref} tabIndex={-1} className={cn(className, 'focus:outline-none')}>
      {children}
    </h2>
  )
}
