import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData } from 'react-router'
import type { Route } from './+types/billing.sandbox.portal'
import { requireUser } from '#app/.server/auth.ts'
import { isSandboxEnabled } from '#app/.server/billing/config.ts'
import { changeSandboxSubscription, getSandboxSubscription, readSandboxToken, SANDBOX_PORTAL_PATH, type SandboxChange } from '#app/.server/billing/sandbox.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { SandboxFrame } from '#app/components/billing/sandbox-frame.tsx'
import { PortalCancel, PortalChangePlan, PortalCurrentPlan, PortalHeader, PortalNoSubscription, PortalTools } from '#app/components/billing/sandbox-portal.tsx'
import { SandboxSessionError } from '#app/components/billing/sandbox-session-error.tsx'
import { isBillingFrequency, isPaidPlanId } from '#app/domain/billing.ts'
import { pageTexts } from '#app/i18n.ts'

// The signed-in app's texts come with its pages, not with the signed-out pages' messages (app/i18n.ts).
await Promise.all([pageTexts('signedIn'), pageTexts('billing'), pageTexts('subscription')])

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
  const check = readSandboxToken(session, 'portal', user.workspace.id)
  if (!check.ok) return data({ state: check.reason }, { status: check.reason === 'forbidden' ? 403 : 400 })
  const subscription = await getSandboxSubscription(user.workspace.id)
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
  const check = readSandboxToken(session, 'portal', user.workspace.id)
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

  const result = await changeSandboxSubscription({ userId: user.workspace.id, subscriptionId, version, change })
  if (!result.ok) return data({ error: t('billing.sandbox.portal.none') }, { status: 409 })
  const back = `${SANDBOX_PORTAL_PATH}?session=${encodeURIComponent(String(session))}`
  // Nothing changed (same plan chosen again, or a repeated submission): no confirmation to show.
  if (!result.event) throw redirect(back)
  let done: Done = change.action === 'update' ? 'updated' : change.action === 'cancel' ? 'canceled' : change.action === 'resume' ? 'resumed' : 'renewed'
  if (change.action === 'end_period' && !(await getSandboxSubscription(user.workspace.id))) done = 'ended'
  throw redirect(`${back}&done=${done}`)
}

export default function SandboxPortalRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const title = t('billing.sandbox.portal.pageTitle')
  if (loaderData.state !== 'ready') return <SandboxSessionError title={title} reason={loaderData.state} />
  const { subscription, session, done, preselect, confirmCancel, portalHref } = loaderData
  const doneMessage = done ? t(`billing.sandbox.portal.done.${done}`) : null
  if (!subscription || !preselect) return <PortalNoSubscription title={title} doneMessage={doneMessage} />
  return (
    <SandboxFrame title={title}>
      <PortalHeader doneMessage={doneMessage} error={actionData?.error} />
      <PortalCurrentPlan subscription={subscription} />
      <PortalChangePlan session={session} subscription={subscription} preselect={preselect} />
      <PortalCancel session={session} subscription={subscription} confirmCancel={confirmCancel} portalHref={portalHref} />
      <PortalTools session={session} subscription={subscription} />
    </SandboxFrame>
  )
}
