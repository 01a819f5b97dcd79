import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData } from 'react-router'
import type { Route } from './+types/billing.sandbox.checkout'
import { requireUser } from '#app/.server/auth.ts'
import { isSandboxEnabled } from '#app/.server/billing/config.ts'
import { confirmSandboxCheckout, readSandboxToken } from '#app/.server/billing/sandbox.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { CheckoutPayment, CheckoutSummary } from '#app/components/billing/sandbox-checkout.tsx'
import { SandboxFrame } from '#app/components/billing/sandbox-frame.tsx'
import { SandboxSessionError } from '#app/components/billing/sandbox-session-error.tsx'
import { pageTexts } from '#app/i18n.ts'

// The signed-in app's texts come with its pages, not with the signed-out pages' messages (app/i18n.ts).
await Promise.all([pageTexts('signedIn'), pageTexts('billing'), pageTexts('subscription')])

/**
 * The sandbox's hosted checkout (no STRIPE_SECRET_KEY): the user confirms a test payment for the
 * plan and frequency signed into `?session=`. Confirming sends checkout.session.completed through
 * the webhook's code path. Nothing is charged.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  if (!isSandboxEnabled()) throw data(null, { status: 404 })
  const session = new URL(request.url).searchParams.get('session') ?? ''
  const check = readSandboxToken(session, 'checkout', user.workspace.id)
  if (!check.ok) return data({ state: check.reason, email: user.email }, { status: check.reason === 'forbidden' ? 403 : 400 })
  return { state: 'ready' as const, email: user.email, session, plan: check.token.plan, frequency: check.token.frequency }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  if (!isSandboxEnabled()) throw data(null, { status: 404 })
  const t = getInstance(context).t
  const form = await request.formData()
  const check = readSandboxToken(form.get('session'), 'checkout', user.workspace.id)
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
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const title = t('billing.sandbox.checkout.pageTitle')
  if (loaderData.state !== 'ready') return <SandboxSessionError title={title} reason={loaderData.state} />
  const { plan, frequency, session, email } = loaderData
  return (
    <SandboxFrame title={title}>
      <div className="grid gap-6 md:grid-cols-5">
        <CheckoutSummary plan={plan} frequency={frequency} />
        <CheckoutPayment plan={plan} frequency={frequency} email={email} session={session} error={actionData?.error} />
      </div>
    </SandboxFrame>
  )
}
