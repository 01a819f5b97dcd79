import { useEffect, useRef } from 'react'
import { Form, useNavigation } from 'react-router'
import type { BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'
import { cn } from '#app/utils/misc.ts'
import { Button } from '../ui/button.tsx'

/** The sandbox portal's view of the subscription (the loader's serialized row). */
export interface PortalSubscription {
  id: string
  plan: PaidPlanId
  frequency: BillingFrequency
  cancelAtPeriodEnd: boolean
  currentPeriodEnd: string
  version: number
}

const TONES = {
  plain: { section: 'mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8', title: 'text-lg font-semibold text-slate-900', hint: 'mt-1 text-sm text-slate-600' },
  danger: { section: 'mt-6 rounded-2xl bg-red-50 p-6 ring-1 ring-red-200 sm:p-8', title: 'text-lg font-semibold text-red-950', hint: 'mt-1 text-sm text-red-900' },
  tools: { section: 'mt-6 rounded-2xl border border-dashed border-amber-400 bg-amber-50 p-6 sm:p-8', title: 'text-lg font-semibold text-amber-950', hint: 'mt-1 text-sm text-amber-950' },
} as const

/** A titled card of the portal. 'danger' is the cancel confirmation, whose heading takes focus. */
export function PortalSection({
  titleId,
  title,
  hint,
  tone = 'plain',
  testId,
  children,
}: {
  titleId: string
  title: React.ReactNode
  hint: React.ReactNode
  tone?: keyof typeof TONES
  testId?: string
  children: React.ReactNode
}) {
  const classes = TONES[tone]
  return (
    <section aria-labelledby={titleId} className={classes.section} data-testid={testId}>
      {tone === 'danger' ? (
        <FocusedHeading id={titleId} className={classes.title}>
          {title}
        </FocusedHeading>
      ) : (
        <h2 id={titleId} className={classes.title}>
          {title}
        </h2>
      )}
      <p className={classes.hint}>{hint}</p>
      {children}
    </section>
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

/**
 * A portal change: a plain POST (works without JavaScript) carrying the session and the
 * subscription's id and version, so a stale page cannot apply a change twice. `children` go
 * between those fields and the submit button.
 */
export function PortalForm({
  session,
  subscription,
  intent,
  label,
  variant,
  className,
  children,
}: {
  session: string
  subscription: PortalSubscription
  intent: 'update' | 'cancel' | 'resume' | 'end_period'
  label: string
  variant?: 'secondary' | 'danger'
  className: string
  children?: React.ReactNode
}) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="session" value={session} />
      <input type="hidden" name="subscriptionId" value={subscription.id} />
      <input type="hidden" name="version" value={subscription.version} />
      {children}
      <Button type="submit" name="intent" value={intent} variant={variant} pending={pending}>
        {label}
      </Button>
    </Form>
  )
}
