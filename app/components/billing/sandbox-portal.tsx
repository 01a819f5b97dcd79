import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { BILLING_FREQUENCIES, maxAnnualDiscountPercent, monthlyCredits, planPricing, type BillingFrequency } from '#app/domain/billing.ts'
import { PAID_PLAN_IDS, type PaidPlanId } from '#app/domain/plans.ts'
import { cn } from '#app/utils/misc.ts'
import { Alert } from '../ui/alert.tsx'
import { buttonClasses } from '../ui/button.tsx'
import { formatBillingDate, formatEuros, formatNumber } from './format.ts'
import { BackToApp, SandboxFrame, SandboxMessage } from './sandbox-frame.tsx'
import { PortalForm, PortalSection, type PortalSubscription } from './sandbox-portal-section.tsx'

interface PortalProps {
  session: string
  subscription: PortalSubscription
}

/** The user has no subscription (any more, e.g. after "end period now" expired it). */
export function PortalNoSubscription({ title, doneMessage }: { title: string; doneMessage: string | null }) {
  const { t } = useTranslation()
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

export function PortalHeader({ doneMessage, error }: { doneMessage: string | null; error?: string }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="text-2xl font-semibold text-slate-900">{t('billing.sandbox.portal.title')}</h1>
        <BackToApp />
      </div>
      <div className="mt-4 space-y-3 empty:hidden">
        {doneMessage ? <Alert tone="success">{doneMessage}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
      </div>
    </>
  )
}

export function PortalCurrentPlan({ subscription }: { subscription: PortalSubscription }) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const pricing = planPricing(subscription.plan, subscription.frequency)
  const amount = formatEuros(pricing.amountPerPeriod, language)
  return (
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
          className={cn('rounded-full px-2.5 py-1 text-xs font-semibold', subscription.cancelAtPeriodEnd ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-800')}
          data-testid="portal-status"
        >
          {subscription.cancelAtPeriodEnd ? t('subscription.status.canceling') : t('subscription.status.active')}
        </span>
      </div>
      <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-3">
        <Detail term={t('billing.sandbox.portal.price')}>
          {subscription.frequency === 'annual' ? t('billing.sandbox.portal.pricePerYear', { amount }) : t('billing.sandbox.portal.pricePerMonth', { amount })}
        </Detail>
        <Detail term={t('billing.sandbox.checkout.credits')}>
          {t('billing.sandbox.checkout.creditsValue', { credits: formatNumber(monthlyCredits(subscription.plan), language) })}
        </Detail>
        <Detail term={subscription.cancelAtPeriodEnd ? t('billing.sandbox.portal.endsLabel') : t('billing.sandbox.portal.renewsLabel')}>
          {formatBillingDate(subscription.currentPeriodEnd, language)}
        </Detail>
      </dl>
    </section>
  )
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-slate-500">{term}</dt>
      <dd className="mt-0.5 font-medium text-slate-900">{children}</dd>
    </div>
  )
}

/** Radio cards, not a select: they stay usable without JavaScript and show each plan's price. */
export function PortalChangePlan({ session, subscription, preselect }: PortalProps & { preselect: { plan: PaidPlanId; frequency: BillingFrequency } }) {
  const { t } = useTranslation()
  return (
    <PortalSection titleId="change-title" title={t('billing.sandbox.portal.changePlan')} hint={t('billing.sandbox.portal.changePlanHint')}>
      <PortalForm session={session} subscription={subscription} intent="update" label={t('billing.sandbox.portal.update')} className="mt-5 space-y-5">
        <ChoiceFieldset legend={t('billing.sandbox.portal.planLegend')} className="mt-2 grid gap-3 sm:grid-cols-3">
          {PAID_PLAN_IDS.map((plan) => (
            <PlanChoice key={plan} plan={plan} defaultChecked={plan === preselect.plan} />
          ))}
        </ChoiceFieldset>
        <ChoiceFieldset legend={t('billing.sandbox.portal.frequencyLegend')} className="mt-2 flex flex-wrap gap-3">
          {BILLING_FREQUENCIES.map((frequency) => (
            <FrequencyChoice key={frequency} frequency={frequency} defaultChecked={frequency === preselect.frequency} />
          ))}
        </ChoiceFieldset>
      </PortalForm>
    </PortalSection>
  )
}

function ChoiceFieldset({ legend, className, children }: { legend: string; className: string; children: React.ReactNode }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className={className}>{children}</div>
    </fieldset>
  )
}

function PlanChoice({ plan, defaultChecked }: { plan: PaidPlanId; defaultChecked: boolean }) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const prices = {
    monthly: formatEuros(planPricing(plan, 'monthly').pricePerMonth, language),
    annual: formatEuros(planPricing(plan, 'annual').pricePerMonth, language),
  }
  return (
    <label className="relative flex cursor-pointer flex-col rounded-xl p-4 ring-1 ring-slate-300 has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-brand-600">
      <input type="radio" name="plan" value={plan} defaultChecked={defaultChecked} className="sr-only" />
      <span className="text-sm font-semibold text-slate-900">{t(`plans.${plan}`)}</span>
      <span className="mt-0.5 text-xs text-slate-600">{t('billing.sandbox.checkout.creditsValue', { credits: formatNumber(monthlyCredits(plan), language) })}</span>
      <span className="mt-1 text-xs text-slate-600">{t('billing.sandbox.portal.planPrices', prices)}</span>
    </label>
  )
}

function FrequencyChoice({ frequency, defaultChecked }: { frequency: BillingFrequency; defaultChecked: boolean }) {
  const { t } = useTranslation()
  return (
    <label className="flex cursor-pointer items-center gap-2 rounded-xl px-4 py-2.5 text-sm ring-1 ring-slate-300 has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600">
      <input type="radio" name="frequency" value={frequency} defaultChecked={defaultChecked} className="size-4 accent-brand-600" />
      <span className="font-medium text-slate-900">{t(`subscription.frequency.${frequency}`)}</span>
      {frequency === 'annual' ? <span className="text-xs text-emerald-700">{t('subscription.frequency.saveUpTo', { percent: maxAnnualDiscountPercent() })}</span> : null}
    </label>
  )
}

/** Resume a canceled subscription; otherwise cancel, in two steps (`confirmCancel` is the second). */
export function PortalCancel({ session, subscription, confirmCancel, portalHref }: PortalProps & { confirmCancel: boolean; portalHref: string }) {
  const { t, i18n } = useTranslation()
  const end = formatBillingDate(subscription.currentPeriodEnd, i18n.language)
  if (subscription.cancelAtPeriodEnd) {
    return (
      <PortalSection titleId="cancel-title" title={t('billing.sandbox.portal.resumeTitle')} hint={t('billing.sandbox.portal.resumeHint', { date: end })}>
        <PortalForm session={session} subscription={subscription} intent="resume" label={t('billing.sandbox.portal.resume')} className="mt-4" />
      </PortalSection>
    )
  }
  if (confirmCancel) {
    return (
      <PortalSection
        titleId="cancel-title"
        tone="danger"
        testId="cancel-confirm"
        title={t('sandboxCancel.title')}
        hint={t('sandboxCancel.body', { plan: t(`plans.${subscription.plan}`), date: end })}
      >
        <PortalForm session={session} subscription={subscription} intent="cancel" variant="danger" label={t('sandboxCancel.confirm')} className="mt-5 flex flex-col-reverse gap-3 sm:flex-row">
          <input type="hidden" name="confirmed" value="yes" />
          <Link to={portalHref} replace preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
            {t('sandboxCancel.keep')}
          </Link>
        </PortalForm>
      </PortalSection>
    )
  }
  return (
    <PortalSection titleId="cancel-title" title={t('billing.sandbox.portal.cancelTitle')} hint={t('billing.sandbox.portal.cancelHint', { date: end })}>
      {/* A link to the confirmation step, not the cancel itself: one click never cancels. */}
      <Link to={`${portalHref}&confirm=cancel#cancel-title`} preventScrollReset className={buttonClasses({ variant: 'secondary', className: 'mt-4' })}>
        {t('billing.sandbox.portal.cancel')}
      </Link>
    </PortalSection>
  )
}

/** Sandbox only: end the period now, to try a renewal (or, once canceled, the expiry) offline. */
export function PortalTools({ session, subscription }: PortalProps) {
  const { t } = useTranslation()
  return (
    <PortalSection
      titleId="tools-title"
      tone="tools"
      title={t('billing.sandbox.portal.toolsTitle')}
      hint={subscription.cancelAtPeriodEnd ? t('billing.sandbox.portal.endPeriodExpireHint') : t('billing.sandbox.portal.endPeriodRenewHint')}
    >
      <PortalForm session={session} subscription={subscription} intent="end_period" variant="secondary" label={t('billing.sandbox.portal.endPeriod')} className="mt-4" />
    </PortalSection>
  )
}
