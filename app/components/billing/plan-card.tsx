import { useTranslation } from 'react-i18next'
import { Form, useNavigation } from 'react-router'
import { PLAN_FEATURES, monthlyCredits, planPricing, type BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId, PlanId } from '#app/domain/plans.ts'
import { cn } from '#app/utils/misc.ts'
import { Button } from '../ui/button.tsx'
import { formatEuros, formatNumber } from './format.ts'

export interface PlanCardAction {
  intent: 'checkout' | 'portal'
  label: string
  variant: 'primary' | 'secondary'
}

/** What the card's button does (SPEC §4): free trial → checkout; paid → the customer portal. */
export function planCardAction({
  plan,
  frequency,
  currentPlan,
  currentFrequency,
  t,
}: {
  plan: PaidPlanId
  frequency: BillingFrequency
  currentPlan: PlanId
  currentFrequency: BillingFrequency | null
  t: (key: string, options?: Record<string, unknown>) => string
}): PlanCardAction {
  const label = t(`plans.${plan}`)
  if (currentPlan === 'free_trial') return { intent: 'checkout', label: t('subscription.choose', { plan: label }), variant: 'primary' }
  if (plan === currentPlan && frequency === currentFrequency) return { intent: 'portal', label: t('subscription.manage'), variant: 'primary' }
  if (plan === currentPlan) {
    return { intent: 'portal', label: t('subscription.switchFrequency', { frequency: t(`subscription.frequency.${frequency}Lower`) }), variant: 'secondary' }
  }
  return { intent: 'portal', label: t('subscription.switchTo', { plan: label }), variant: 'secondary' }
}

export function PlanCard({
  plan,
  frequency,
  current,
  recommended = false,
  action,
  idempotencyKey,
  disabled = false,
}: {
  plan: PaidPlanId
  frequency: BillingFrequency
  current: boolean
  /** The plan the page suggests (recommendedPlan): its own badge and border, and the primary button. */
  recommended?: boolean
  action: PlanCardAction
  idempotencyKey: string
  /** Billing is off here: the card still shows the plan, but cannot start a change. */
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const headingId = `plan-${plan}-name`
  return (
    <li
      aria-labelledby={headingId}
      data-testid={`plan-${plan}`}
      data-current={current || undefined}
      data-recommended={recommended || undefined}
      className={cn(
        'relative flex flex-col rounded-2xl p-6 shadow-sm sm:p-7',
        current
          ? 'bg-emerald-50/40 shadow-md ring-2 ring-emerald-600'
          : recommended
            ? 'bg-gradient-to-b from-brand-50/70 to-white shadow-md ring-2 ring-brand-600'
            : 'bg-white ring-1 ring-slate-200',
      )}
    >
      {current || recommended ? <PlanBadge current={current} /> : null}
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {t(`plans.${plan}`)}
      </h2>
      <p className="mt-1 text-sm text-slate-600 lg:min-h-10">{t(`subscription.taglines.${plan}`)}</p>
      <PlanPrice plan={plan} frequency={frequency} />
      <PlanCredits plan={plan} />
      <PlanFeatures plan={plan} />
      <PlanCardForm
        plan={plan}
        frequency={frequency}
        action={action}
        idempotencyKey={idempotencyKey}
        variant={recommended ? 'primary' : action.variant}
        disabled={disabled}
        headingId={headingId}
      />
    </li>
  )
}

/** Sits inside the heading's card, so it is read after the plan name: "Professional, Current plan". */
function PlanBadge({ current }: { current: boolean }) {
  const { t } = useTranslation()
  return (
    <p
      className={cn(
        'absolute -top-3 left-6 inline-flex items-center gap-1 rounded-full px-3 py-0.5 text-xs font-semibold tracking-wide text-white shadow-sm',
        current ? 'bg-emerald-700' : 'bg-brand-600',
      )}
      data-testid="plan-badge"
    >
      {current ? <CheckIcon className="size-3.5" strokeWidth={2.4} /> : <StarIcon />}
      {current ? t('subscription.currentBadge') : t('planHighlight.recommended')}
    </p>
  )
}

function PlanPrice({ plan, frequency }: { plan: PaidPlanId; frequency: BillingFrequency }) {
  const { t, i18n } = useTranslation()
  const pricing = planPricing(plan, frequency)
  const language = i18n.language
  return (
    <>
      <p className="mt-5 flex items-baseline gap-1.5">
        <span className="text-4xl font-semibold tracking-tight text-slate-900" data-testid="plan-price">
          {formatEuros(pricing.pricePerMonth, language)}
        </span>
        <span className="text-sm font-medium text-slate-500">{t('subscription.perMonth')}</span>
      </p>
      <p className="mt-1 text-sm text-slate-600" data-testid="plan-billing">
        {frequency === 'annual' ? t('subscription.billedYearly', { amount: formatEuros(pricing.amountPerPeriod, language) }) : t('subscription.billedMonthly')}
      </p>
      {/* Kept (invisible) on monthly cards too, so the cards' buttons line up whichever frequency is shown. */}
      <p className={cn('mt-1 text-sm font-medium', frequency === 'annual' ? 'text-emerald-700' : 'invisible')} aria-hidden={frequency !== 'annual' || undefined}>
        {frequency === 'annual' ? t('subscription.yearlySavings', { amount: formatEuros(pricing.yearlySavings, language) }) : '\u00a0'}
      </p>
    </>
  )
}

function PlanCredits({ plan }: { plan: PaidPlanId }) {
  const { t, i18n } = useTranslation()
  return (
    <p className="mt-5 flex items-center gap-2 rounded-xl bg-brand-50 px-3.5 py-2.5 text-sm text-brand-900">
      <CoinsIcon />
      <span>
        <strong className="font-semibold">{formatNumber(monthlyCredits(plan), i18n.language)}</strong> {t('subscription.creditsPerMonth')}
      </span>
    </p>
  )
}

function PlanFeatures({ plan }: { plan: PaidPlanId }) {
  const { t } = useTranslation()
  return (
    <ul className="mt-5 space-y-2.5 text-sm text-slate-700">
      {PLAN_FEATURES[plan].map((feature) => (
        <li key={feature} className="flex gap-2.5">
          <CheckIcon />
          <span>{t(`subscription.features.${feature}`)}</span>
        </li>
      ))}
    </ul>
  )
}

/** A plain POST form, so choosing a plan works without JavaScript. */
function PlanCardForm({
  plan,
  frequency,
  action,
  idempotencyKey,
  variant,
  disabled,
  headingId,
}: {
  plan: PaidPlanId
  frequency: BillingFrequency
  action: PlanCardAction
  idempotencyKey: string
  variant: PlanCardAction['variant']
  disabled: boolean
  headingId: string
}) {
  const pending = usePlanActionPending(action.intent, plan)
  return (
    <Form method="post" className="mt-auto pt-7">
      <input type="hidden" name="intent" value={action.intent} />
      <input type="hidden" name="plan" value={plan} />
      <input type="hidden" name="frequency" value={frequency} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <Button type="submit" variant={variant} size="lg" pending={pending} disabled={disabled} className="w-full" aria-describedby={headingId}>
        {action.label}
      </Button>
    </Form>
  )
}

/** Every card posts the same intents: only the card whose plan is being submitted shows a spinner. */
function usePlanActionPending(intent: PlanCardAction['intent'], plan: PaidPlanId) {
  const navigation = useNavigation()
  return (
    navigation.state !== 'idle' &&
    navigation.formMethod === 'POST' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('plan') === plan
  )
}

function StarIcon() {
  return (
    <svg viewBox="0 0 20 20" className="size-3.5" fill="currentColor" aria-hidden="true">
      <path d="M10 1.8l2.5 5.2 5.7.8-4.1 4 1 5.6L10 14.7l-5.1 2.7 1-5.6-4.1-4 5.7-.8z" />
    </svg>
  )
}

function CheckIcon({ className = 'mt-0.5 size-4 shrink-0 text-brand-600', strokeWidth = 2 }: { className?: string; strokeWidth?: number }) {
  return (
    <svg viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth={strokeWidth} aria-hidden="true">
      <path d="m4.5 10.5 3.5 3.5 7.5-8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

function CoinsIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5 shrink-0 text-brand-600" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <path d="M12 8c-3.3 0-6-1.1-6-2.5S8.7 3 12 3s6 1.1 6 2.5S15.3 8 12 8zm-6-2.5v5C6 11.9 8.7 13 12 13s6-1.1 6-2.5v-5M6 10.5v5c0 1.4 2.7 2.5 6 2.5s6-1.1 6-2.5v-5M6 15.5v3C6 19.9 8.7 21 12 21s6-1.1 6-2.5v-3" />
    </svg>
  )
}
